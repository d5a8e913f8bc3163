package dev.zarrow.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plugins found through the thread's context class loader, as engines load them: a codec compiled here,
 * at test time, into a directory that only a child class loader sees.
 */
@ExtendWith(AllocatorExtension.class)
class RegistryTest {
  @TempDir Path dir;

  /** A bytes->bytes codec {@code test.xor} (every byte xor 0x5a) and the plugin that lists it. */
  private static final String PLUGIN = """
      package test.plugin;

      import dev.zarrow.codec.BytesToBytesCodec;
      import dev.zarrow.codec.Codec;
      import dev.zarrow.codec.CodecContext;
      import dev.zarrow.codec.CodecFactory;
      import dev.zarrow.metadata.NamedConfig;
      import dev.zarrow.spi.ZarrPlugin;
      import java.nio.ByteBuffer;
      import java.util.List;

      public final class XorPlugin implements ZarrPlugin {
        @Override
        public List<CodecFactory> codecs() {
          return List.of(new CodecFactory() {
            @Override
            public List<String> names() {
              return List.of("test.xor");
            }

            @Override
            public Codec create(NamedConfig metadata, CodecContext context) {
              return new Xor();
            }
          });
        }

        static final class Xor implements BytesToBytesCodec {
          @Override
          public NamedConfig toMetadata() {
            return NamedConfig.plain("test.xor");
          }

          @Override
          public ByteBuffer encode(ByteBuffer bytes) {
            ByteBuffer out = ByteBuffer.allocateDirect(bytes.remaining());
            for (int i = bytes.position(); i < bytes.limit(); i++) {
              out.put((byte) (bytes.get(i) ^ 0x5a));
            }
            return out.flip();
          }

          @Override
          public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
            return encode(bytes);
          }
        }
      }
      """;

  /** The plugin compiled into {@code dir} with its service file: a directory zarrow's class loader never sees. */
  private URL compilePlugin() throws Exception {
    Path source = dir.resolve("src/test/plugin/XorPlugin.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, PLUGIN);
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes.resolve("META-INF/services"));
    Files.writeString(classes.resolve("META-INF/services/" + ZarrPlugin.class.getName()), "test.plugin.XorPlugin\n");
    String classPath = Stream.of(Registry.class, JsonNode.class, Field.class, BufferAllocator.class)
        .map(RegistryTest::location)
        .collect(Collectors.joining(java.io.File.pathSeparator));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "a JDK with javac");
    int status = javac.run(null, null, null, "-proc:none", "-classpath", classPath, "-d", classes.toString(), source.toString());
    assertEquals(0, status, "the plugin compiles");
    return classes.toUri().toURL();
  }

  /** The jar or directory {@code type} was loaded from. */
  private static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code work} with {@code loader} as the thread's context class loader, restored after. */
  private static <T> T withContextLoader(ClassLoader loader, Callable<T> work) throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      return work.call();
    } finally {
      thread.setContextClassLoader(before);
    }
  }

  @Test
  void findsAPluginThatOnlyTheContextClassLoaderSees(BufferAllocator allocator) throws Exception {
    URL plugin = compilePlugin();
    assertFalse(Registry.defaults().codecNames().contains("test.xor"), "zarrow's own loader does not see it");
    try (URLClassLoader child = new URLClassLoader(new URL[] {plugin}, Registry.class.getClassLoader())) {
      Registry found = withContextLoader(child, Registry::defaults);
      assertTrue(found.codecNames().contains("test.xor"), found.codecNames().toString());
      assertEquals(Registry.defaults().codecNames().size() + 1, found.codecNames().size(), "zarrow's own codecs, once, plus one");

      // Arrays opened while the engine's loader is the context loader use the plugin like any codec.
      MemoryStore store = new MemoryStore();
      ZarrArray array = withContextLoader(child, () -> Zarr.createArray(store, "a",
          ArraySpec.of(FixedType.INT16, 6).chunks(6).compressors(List.of(NamedConfig.plain("test.xor"))),
          ZarrOptions.defaults()));
      byte[] values = Vectors.unhex("0100 0200 0300 0400 0500 0600");
      try (FieldVector data = Vectors.fromBytes(FixedType.INT16, values, allocator)) {
        array.write(0, data);
      }
      byte[] stored = Vectors.toArray(store.get("a/c/0").orElseThrow());
      assertEquals((byte) (0x01 ^ 0x5a), stored[0], "stored through the plugin's codec");
      try (NdVector back = array.read(allocator)) {
        assertArrayEquals(values, Vectors.bytes(FixedType.INT16, back.vector()));
      }
    }
  }

  @Test
  void aContextLoaderWithNothingNewAddsNothing() throws Exception {
    try (URLClassLoader child = new URLClassLoader(new URL[0], Registry.class.getClassLoader())) {
      // The child sees zarrow's own plugins through its parent: each plugin class counts once.
      assertSame(Registry.defaults(), withContextLoader(child, Registry::defaults));
    }
    assertSame(Registry.defaults(), withContextLoader(null, Registry::defaults));
  }
}
