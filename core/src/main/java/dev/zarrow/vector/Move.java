package dev.zarrow.vector;

import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Hands a vector's buffers to another vector of the same layout, without copying: the way Arrow's
 * own {@code VectorLoader} loads a batch. Unlike {@code makeTransferPair}, it pairs children by
 * position, so structs whose children repeat a name move whole.
 */
public final class Move {
  private Move() {}

  /**
   * Makes {@code to} (and its children) hold {@code from}'s buffers, releasing what {@code to}
   * held. Both then reference the memory; closing {@code from} leaves {@code to} its only owner.
   */
  public static void into(FieldVector from, FieldVector to) {
    to.loadFieldBuffers(new ArrowFieldNode(from.getValueCount(), from.getNullCount()), from.getFieldBuffers());
    List<FieldVector> sources = from.getChildrenFromFields();
    List<FieldVector> targets = to.getChildrenFromFields();
    for (int i = 0; i < sources.size(); i++) {
      into(sources.get(i), targets.get(i));
    }
  }
}
