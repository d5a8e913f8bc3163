package dev.zarrow.store.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback in front of a server, that drops connections as a server may: the first
 * connection after {@link #cutFirstAfter} bytes from the client (mid-body), or every open connection at
 * once ({@link #dropAll}, as a server closes idle keep-alive connections).
 */
final class DroppingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();
  private volatile long cutAfter = -1; // bytes from the client after which the next connection is cut

  DroppingProxy(URI server) throws IOException {
    this.target = new InetSocketAddress(server.getHost(), server.getPort());
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::accept, "dropping-proxy");
    accept.setDaemon(true);
    accept.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  /** The next connection is closed once the client has sent {@code bytes} bytes on it. */
  void cutFirstAfter(long bytes) {
    cutAfter = bytes;
  }

  /** Closes every connection open now, both ways. */
  void dropAll() {
    for (Socket s : open) {
      close(s);
      dropped.incrementAndGet();
    }
  }

  int connections() {
    return connections.get();
  }

  int dropped() {
    return dropped.get();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(target.getAddress(), target.getPort());
        connections.incrementAndGet();
        long cut = cutAfter;
        cutAfter = -1;
        open.add(client);
        open.add(server);
        pump(client, server, cut);
        pump(server, client, -1);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(Socket from, Socket to, long cut) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[8192];
      AtomicLong sent = new AtomicLong();
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          if (cut >= 0 && sent.get() + n >= cut) {
            out.write(buffer, 0, (int) (cut - sent.get()));
            out.flush();
            dropped.incrementAndGet();
            break; // mid-body: both sockets close below
          }
          out.write(buffer, 0, n);
          out.flush();
          sent.addAndGet(n);
        }
      } catch (IOException e) {
        // the other side closed
      } finally {
        close(from);
        close(to);
        open.remove(from);
        open.remove(to);
      }
    }, "dropping-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void close(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    dropAll();
  }
}
