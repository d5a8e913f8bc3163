package dev.zarrow.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads for blocking requests of a remote store: they keep no JVM alive and end after 30 s idle. */
public final class IoThreads {
  private IoThreads() {}

  /** A pool of at most {@code threads} daemon threads named {@code NAME-1}, {@code NAME-2}, ... */
  public static ExecutorService pool(String name, int threads) {
    AtomicInteger started = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, name + "-" + started.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
