package dev.zarrow.spark;

import dev.zarrow.grid.Box;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Some regions of a dataset's grid, each read as one batch (a chunk, or a slab of the inner chunks of a
 * shard that the pushed filters leave: {@link DatasetScan#slabs}), flattened ({@code rank} starts then {@code rank} lengths per region), their
 * rows, and the hosts that hold most of their bytes where the file system says.
 */
record DatasetPartition(long[] regions, int rank, long rows, String[] hosts) implements InputPartition {
  DatasetPartition {
    regions = regions.clone();
    hosts = hosts.clone();
  }

  DatasetPartition(List<Box> regions, int rank, String[] hosts) {
    this(flatten(regions), rank, regions.stream().mapToLong(Box::size).sum(), hosts);
  }

  private static long[] flatten(List<Box> regions) {
    return regions.stream().flatMapToLong(b -> java.util.stream.LongStream.concat(Arrays.stream(b.start()), Arrays.stream(b.shape())))
        .toArray();
  }

  /** The regions, in order (a grid of no dimension has one region, its one cell). */
  List<Box> regionList() {
    if (rank == 0) {
      return List.of(Box.of(new long[0]));
    }
    List<Box> out = new ArrayList<>();
    for (int i = 0; i < regions.length; i += 2 * rank) {
      out.add(new Box(Arrays.copyOfRange(regions, i, i + rank), Arrays.copyOfRange(regions, i + rank, i + 2 * rank)));
    }
    return out;
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
