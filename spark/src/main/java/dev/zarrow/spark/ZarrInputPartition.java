package dev.zarrow.spark;

import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Rows {@code [start, end)} of a table (one stored chunk, or shard, along the rows), with the hosts
 * that hold most of its bytes where the file system says.
 */
record ZarrInputPartition(long start, long end, String[] hosts) implements InputPartition {
  ZarrInputPartition {
    hosts = hosts.clone();
  }

  ZarrInputPartition(long start, long end, List<String> hosts) {
    this(start, end, hosts.toArray(String[]::new));
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
