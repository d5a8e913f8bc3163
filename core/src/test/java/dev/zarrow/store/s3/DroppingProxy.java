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
 * connection after {@link #cutFirstAfter} bytes from the client (mid-body), the first after {@link
 * #cutFirstAnswerAfter} bytes of its answer's body, or every open connection at once ({@link
 * #dropAll}, as a server closes idle keep-alive connections).
 */
final class DroppingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();
  private volatile long cutAfter = -1; // bytes from the client after which the next connection is cut
  private volatile long cutAnswerAfter = -1; // bytes of the answer's body after which the next connection is cut

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

  /** The next connection is closed once the server has sent the head of its answer and {@code bytes} of its body. */
  void cutFirstAnswerAfter(long bytes) {
    cutAnswerAfter = bytes;
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
        long cutAnswer = cutAnswerAfter;
        cutAfter = -1;
        cutAnswerAfter = -1;
        open.add(client);
        open.add(server);
        pump(client, server, cut, false);
        pump(server, client, cutAnswer, true);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** Copies {@code from} to {@code to}, cut after {@code cut} bytes (counted after the head's blank line if {@code afterHead}). */
  private void pump(Socket from, Socket to, long cut, boolean afterHead) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[8192];
      AtomicLong sent = new AtomicLong();
      long start = afterHead ? -1 : 0; // where counting starts, once known
      StringBuilder head = new StringBuilder(); // the answer's head so far
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          for (int i = 0; cut >= 0 && start < 0 && i < n; i++) {
            head.append((char) (buffer[i] & 0xff));
            if (head.toString().endsWith("\r\n\r\n")) {
              // an interim answer (100 Continue to a write's Expect) comes before the real one
              start = head.toString().startsWith("HTTP/1.1 1") ? -1 : sent.get() + i + 1;
              head.setLength(0);
            }
          }
          if (cut >= 0 && start >= 0 && sent.get() + n >= start + cut) {
            out.write(buffer, 0, (int) (start + cut - sent.get()));
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
