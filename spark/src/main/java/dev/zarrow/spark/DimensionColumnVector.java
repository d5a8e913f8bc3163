package dev.zarrow.spark;

import java.util.Arrays;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A dimension's column of a dataset's chunk, computed rather than stored: the cells of a chunk come in
 * C order, so cell {@code r} of the chunk holds the dimension's value at position {@code first + (r /
 * stride) % extent} ({@code first} and {@code extent} the chunk's start and length along the dimension,
 * {@code stride} the cells of one step along it). The values are the dimension's own ({@code values}, the
 * index coordinate read once at planning, as Spark reads them), so a chunk of a million rows costs no
 * memory for its dimension columns, where a materialised column costs megabytes of fresh pages per task.
 *
 * <p>A view of a slice of the chunk's rows, as {@link BufferColumnVector}: {@link #slice} works out the
 * positions of the slice's rows once (no division per row; a run of equal positions at a time), into an
 * array reused for every slice, and each getter reads the value at its row's position. Borrows {@code
 * values}; closing this leaves it open.
 */
final class DimensionColumnVector extends ColumnVector implements SlicedColumn {
  private final ColumnVector values;
  private final long first;
  private final long stride;
  private final long extent;
  private int[] positions = new int[0];
  private int rows;
  private int nulls = -1; // the slice's, -1 until counted

  /**
   * The column of the chunk whose rows are {@code stride * extent * n} cells (C order) and which starts
   * at position {@code first} along the dimension; it shows no row until {@link #slice} says which.
   */
  DimensionColumnVector(ColumnVector values, long first, long extent, long stride) {
    super(values.dataType());
    this.values = values;
    this.first = first;
    this.extent = extent;
    this.stride = stride;
  }

  /** Works out the positions of the rows: a run of {@code stride} rows each, filled a run at a time. */
  @Override
  public void slice(int from, int count) {
    if (positions.length < count) {
      positions = new int[count];
    }
    int at = (int) (from / stride % extent);
    if (stride == 1) { // the last dimension: a position per row
      for (int i = 0; i < count; i++) {
        positions[i] = (int) (first + at);
        if (++at == extent) {
          at = 0;
        }
      }
    } else {
      long within = from % stride; // cells since the last step along the dimension
      for (int i = 0; i < count; ) {
        int run = (int) Math.min(count - i, stride - within);
        Arrays.fill(positions, i, i + run, (int) (first + at));
        i += run;
        within = 0;
        if (++at == extent) {
          at = 0;
        }
      }
    }
    rows = count;
    nulls = values.hasNull() ? -1 : 0;
  }

  @Override
  public void close() {}

  @Override
  public boolean hasNull() {
    return numNulls() > 0;
  }

  @Override
  public int numNulls() {
    if (nulls < 0) {
      int n = 0;
      for (int i = 0; i < rows; i++) {
        n += values.isNullAt(positions[i]) ? 1 : 0;
      }
      nulls = n;
    }
    return nulls;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return values.isNullAt(positions[rowId]);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return values.getBoolean(positions[rowId]);
  }

  @Override
  public byte getByte(int rowId) {
    return values.getByte(positions[rowId]);
  }

  @Override
  public short getShort(int rowId) {
    return values.getShort(positions[rowId]);
  }

  @Override
  public int getInt(int rowId) {
    return values.getInt(positions[rowId]);
  }

  @Override
  public long getLong(int rowId) {
    return values.getLong(positions[rowId]);
  }

  @Override
  public float getFloat(int rowId) {
    return values.getFloat(positions[rowId]);
  }

  @Override
  public double getDouble(int rowId) {
    return values.getDouble(positions[rowId]);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return values.getDecimal(positions[rowId], precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return values.getUTF8String(positions[rowId]);
  }

  @Override
  public byte[] getBinary(int rowId) {
    return values.getBinary(positions[rowId]);
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return values.getArray(positions[rowId]);
  }

  @Override
  public ColumnarMap getMap(int rowId) {
    return values.getMap(positions[rowId]);
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw new UnsupportedOperationException("a dimension's column has no children");
  }
}
