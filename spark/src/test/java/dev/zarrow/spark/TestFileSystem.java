package dev.zarrow.spark;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code testfs:} (set as {@code fs.testfs.impl}): a Hadoop
 * file system that zarrow's own stores do not answer, so locations {@code testfs:///DIR} go through
 * {@link HadoopStore} and the job's Hadoop configuration, as {@code hdfs://} or {@code s3a://} do.
 * Statuses are plain ones (the local file system's own read permissions through a {@code file:} URI).
 * Files under a directory named {@code located} say they are on host {@code node-NAME} (NAME: the
 * file's own name, a chunk's last index), as HDFS names the data nodes of a file's blocks.
 */
public class TestFileSystem extends RawLocalFileSystem {
  static final String SCHEME = "testfs";

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return plain(super.getFileStatus(f));
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    FileStatus[] all = super.listStatus(f);
    for (int i = 0; i < all.length; i++) {
      all[i] = plain(all[i]);
    }
    return all;
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
    if (file != null && file.getPath().toUri().getPath().contains("/located/")) {
      String host = "node-" + file.getPath().getName();
      return new BlockLocation[] {new BlockLocation(new String[] {host + ":9866"}, new String[] {host}, 0, file.getLen())};
    }
    return super.getFileBlockLocations(file, start, len);
  }

  private static FileStatus plain(FileStatus s) {
    return new FileStatus(s.getLen(), s.isDirectory(), 1, s.getBlockSize(), s.getModificationTime(), s.getPath());
  }
}
