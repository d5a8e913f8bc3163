package dev.zarrow.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Some chunks of a dataset's grid (their grid coordinates flattened, {@code rank} per chunk),
 * their rows, and the hosts that hold most of their bytes where the file system says.
 */
record DatasetPartition(long[] chunks, int rank, long rows, String[] hosts) implements InputPartition {
  DatasetPartition {
    chunks = chunks.clone();
    hosts = hosts.clone();
  }

  /** The chunks' grid coordinates (a grid of no dimension has one chunk). */
  List<long[]> chunkList() {
    if (rank == 0) {
      return List.of(new long[0]);
    }
    List<long[]> out = new ArrayList<>();
    for (int i = 0; i < chunks.length; i += rank) {
      out.add(Arrays.copyOfRange(chunks, i, i + rank));
    }
    return out;
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
