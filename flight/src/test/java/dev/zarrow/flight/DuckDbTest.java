package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * DuckDB over a group table through the C Data interface: the table's {@link TableReader} exported
 * as an {@code ArrowArrayStream} ({@code Data.exportArrayStream}) and registered with {@code
 * registerArrowStream}. Each query equals the same query over the source rows loaded into a DuckDB
 * table of its own (by the appender, no Arrow involved): counts, sums, group by, strings, lists. A
 * corrupt chunk fails the query with zarrow's message; the allocator is at zero after every test.
 */
@ExtendWith(AllocatorExtension.class)
class DuckDbTest {
  private static final int ROWS = 50_000;
  private static final String[] CITIES = {"Oslo", "Lima", "Pune", "Kyiv", "Accra"};
  private static final String[] TAGS = {"red", "green", "blue", "ünïcode", ""};

  @TempDir Path dir;
  private FileSystemStore store;
  private ZarrGroup people;
  private DuckDBConnection duck;

  private final long[] id = new long[ROWS];
  private final String[] name = new String[ROWS];
  private final String[] city = new String[ROWS];
  private final double[] amount = new double[ROWS];
  private final Integer[] qty = new Integer[ROWS];
  private final List<List<String>> tags = new ArrayList<>();

  @BeforeEach
  void write(BufferAllocator allocator) throws Exception {
    Random random = new Random(16);
    for (int i = 0; i < ROWS; i++) {
      id[i] = 1_000_000L + i;
      name[i] = "person " + Integer.toString(i, 36);
      city[i] = random.nextInt(9) == 0 ? null : CITIES[random.nextInt(CITIES.length)];
      amount[i] = random.nextInt(4000) * 0.25; // sums stay exact in any order
      qty[i] = random.nextInt(11) == 0 ? null : random.nextInt(100) - 20;
      List<String> t = null;
      if (random.nextInt(13) != 0) {
        t = new ArrayList<>();
        for (int k = random.nextInt(4); k > 0; k--) {
          t.add(TAGS[random.nextInt(TAGS.length)]);
        }
      }
      tags.add(t);
    }
    store = FileSystemStore.open(dir.resolve("store"));
    try (VectorSchemaRoot root = sourceRoot(allocator)) {
      // 4096-row chunks in 16384-row shards: 4 shards, the last one short
      people = TableWriter.write(Zarr.createGroup(store, "people"), root, TableOptions.defaults().withChunkRows(4096).withShardRows(16384));
    }
    duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = duck.createStatement()) {
      s.execute("CREATE TABLE source (id BIGINT, name VARCHAR, city VARCHAR, amount DOUBLE, qty INTEGER, tags VARCHAR[])");
    }
    try (DuckDBAppender appender = duck.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "source")) {
      for (int i = 0; i < ROWS; i++) {
        appender.beginRow().append(id[i]).append(name[i]);
        appendOrNull(appender, city[i]);
        appender.append(amount[i]);
        appendOrNull(appender, qty[i]);
        appendOrNull(appender, tags.get(i));
        appender.endRow();
      }
    }
  }

  @org.junit.jupiter.api.AfterEach
  void close() throws Exception {
    duck.close();
    store.close();
  }

  private static void appendOrNull(DuckDBAppender appender, Object value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else if (value instanceof String s) {
      appender.append(s);
    } else if (value instanceof Integer n) {
      appender.append(n.intValue());
    } else {
      appender.append((List<?>) value);
    }
  }

  private VectorSchemaRoot sourceRoot(BufferAllocator allocator) {
    BigIntVector ids = new BigIntVector("id", allocator);
    VarCharVector names = new VarCharVector("name", allocator);
    VarCharVector cities = new VarCharVector("city", allocator);
    Float8Vector amounts = new Float8Vector("amount", allocator);
    IntVector qtys = new IntVector("qty", allocator);
    ListVector tagLists = ListVector.empty("tags", allocator);
    UnionListWriter writer = tagLists.getWriter();
    for (int i = 0; i < ROWS; i++) {
      ids.setSafe(i, id[i]);
      names.setSafe(i, name[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
      if (city[i] != null) {
        cities.setSafe(i, city[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      amounts.setSafe(i, amount[i]);
      if (qty[i] != null) {
        qtys.setSafe(i, qty[i]);
      }
      writer.setPosition(i);
      if (tags.get(i) != null) {
        writer.startList();
        for (String t : tags.get(i)) {
          writer.writeVarChar(t);
        }
        writer.endList();
      }
    }
    VectorSchemaRoot root = VectorSchemaRoot.of(ids, names, cities, amounts, qtys, tagLists);
    for (var v : root.getFieldVectors()) {
      v.setValueCount(ROWS);
    }
    root.setRowCount(ROWS);
    return root;
  }

  /**
   * The README's example: the table's reader exported as a C stream (which then owns the reader),
   * registered, queried. A registered stream is read once, so each query exports a fresh one.
   */
  private List<List<Object>> overZarrow(String sql, BufferAllocator allocator) throws Exception {
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, TableReader.of(people, allocator), stream);
      duck.registerArrowStream("people", stream);
      return rows(sql.replace("{T}", "people"));
    }
  }

  private List<List<Object>> overSource(String sql) throws SQLException {
    return rows(sql.replace("{T}", "source"));
  }

  private List<List<Object>> rows(String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 1; c <= n; c++) {
          Object value = rs.getObject(c);
          row.add(value instanceof Array a ? Arrays.asList((Object[]) a.getArray()) : value);
        }
        out.add(row);
      }
    }
    return out;
  }

  private void assertSameOverBoth(String sql, BufferAllocator allocator) throws Exception {
    List<List<Object>> source = overSource(sql);
    assertTrue(!source.isEmpty(), sql);
    assertEquals(source, overZarrow(sql, allocator), sql);
  }

  @Test
  void countsAndSums(BufferAllocator allocator) throws Exception {
    String sql = "SELECT count(*), count(city), count(qty), sum(id), sum(amount), min(qty), max(qty), sum(qty) FROM {T}";
    assertSameOverBoth(sql, allocator);
    List<Object> row = overZarrow(sql, allocator).get(0);
    assertEquals((long) ROWS, row.get(0));
    assertEquals(Arrays.stream(amount).sum(), row.get(4));
  }

  @Test
  void groupBy(BufferAllocator allocator) throws Exception {
    assertSameOverBoth("SELECT city, count(*), sum(amount), sum(qty), avg(qty) FROM {T} GROUP BY city ORDER BY city NULLS FIRST", allocator);
  }

  @Test
  void strings(BufferAllocator allocator) throws Exception {
    assertSameOverBoth("SELECT count(*), min(name), max(name), sum(length(name)) FROM {T} WHERE name LIKE 'person 1%'", allocator);
    assertSameOverBoth("SELECT upper(city), count(DISTINCT name) FROM {T} WHERE city <> 'Lima' GROUP BY 1 ORDER BY 1", allocator);
  }

  @Test
  void lists(BufferAllocator allocator) throws Exception {
    assertSameOverBoth("SELECT sum(len(tags)), count(tags), count(*) FILTER (WHERE list_contains(tags, 'ünïcode')) FROM {T}", allocator);
    assertSameOverBoth("SELECT tag, count(*) FROM (SELECT unnest(tags) AS tag FROM {T}) GROUP BY tag ORDER BY tag", allocator);
    assertSameOverBoth("SELECT id, name, city, qty, tags FROM {T} WHERE id % 997 = 0 ORDER BY id", allocator);
  }

  @Test
  void aCorruptChunkFailsTheQueryWithZarrowsMessage(BufferAllocator allocator) throws Exception {
    Path chunk = dir.resolve("store/people/amount/c/2");
    byte[] bytes = Files.readAllBytes(chunk);
    bytes[bytes.length / 3] ^= 0x21;
    Files.write(chunk, bytes);
    SQLException e = assertThrows(SQLException.class, () -> overZarrow("SELECT sum(amount) FROM {T}", allocator));
    assertTrue(e.getMessage().contains("people/amount"), e.getMessage());
  }
}
