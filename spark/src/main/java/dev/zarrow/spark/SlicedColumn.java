package dev.zarrow.spark;

/**
 * A Spark column that is a view of some rows of a larger batch: a decoded chunk goes to Spark as slices
 * of a few thousand rows without a copy.
 */
interface SlicedColumn {
  /** Makes this the view of the batch's rows {@code [from, from + count)}, within its rows. */
  void slice(int from, int count);
}
