package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Null-typed columns through the C Data interface both ways: a table that reaches zarrow as a C stream
 * (from DuckDB's own result, and a null column whose field is not nullable, as apache-arrow writes
 * one) is written by {@link TableWriter} and read back by DuckDB through {@link TableReader}.
 */
@ExtendWith(AllocatorExtension.class)
class DuckDbNullColumnTest {
  private static final int ROWS = 12;

  @TempDir Path dir;
  private FileSystemStore store;
  private DuckDBConnection duck;

  @BeforeEach
  void open() throws Exception {
    store = FileSystemStore.open(dir.resolve("store"));
    duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = duck.createStatement()) {
      s.execute("CREATE TABLE source AS SELECT i::INTEGER AS i, NULL AS n FROM range(" + ROWS + ") t(i)");
    }
  }

  @AfterEach
  void close() throws Exception {
    duck.close();
    store.close();
  }

  @Test
  void duckDbsNullColumnRoundTrips(BufferAllocator allocator) throws Exception {
    ZarrGroup table;
    try (Statement s = duck.createStatement();
        DuckDBResultSet rs = (DuckDBResultSet) s.executeQuery("SELECT * FROM source ORDER BY i");
        ArrowReader fromDuck = (ArrowReader) rs.arrowExportStream(allocator, 5)) {
      table = TableWriter.write(Zarr.createGroup(store, "t"), fromDuck, TableOptions.defaults().withChunkRows(4), allocator);
    }
    assertSameOverBoth(table, allocator);
  }

  /** apache-arrow's null column: the field says not nullable, and every value is null (Arrow's Null type). */
  @Test
  void aNotNullableNullColumnThroughCDataRoundTrips(BufferAllocator allocator) throws Exception {
    ByteArrayOutputStream ipc = new ByteArrayOutputStream();
    try (IntVector i = new IntVector("i", allocator);
        NullVector n = new NullVector(new Field("n", new FieldType(false, ArrowType.Null.INSTANCE, null), null));
        VectorSchemaRoot root = VectorSchemaRoot.of(i, n);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, ipc)) {
      i.allocateNew(ROWS);
      for (int k = 0; k < ROWS; k++) {
        i.set(k, k);
      }
      root.setRowCount(ROWS);
      writer.writeBatch();
      writer.end();
    }
    ZarrGroup table;
    try (ArrowStreamReader source = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator);
        ArrowArrayStream c = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, source, c);
      try (ArrowReader imported = Data.importArrayStream(allocator, c)) {
        assertEquals(false, imported.getVectorSchemaRoot().getSchema().findField("n").isNullable());
        table = TableWriter.write(Zarr.createGroup(store, "t"), imported, TableOptions.defaults().withChunkRows(5), allocator);
      }
    }
    try (TableReader reader = TableReader.of(table, allocator)) {
      Field n = reader.getVectorSchemaRoot().getSchema().findField("n");
      assertEquals(new FieldType(false, ArrowType.Null.INSTANCE, null), n.getFieldType(), "the stored field, as written");
    }
    assertSameOverBoth(table, allocator);
  }

  /** The same query over the zarr table (through C Data) and over DuckDB's own source table. */
  private void assertSameOverBoth(ZarrGroup table, BufferAllocator allocator) throws Exception {
    String sql = "SELECT count(*), count(n), count(i), sum(i), string_agg(coalesce(n::VARCHAR, '-'), '') FROM ";
    List<Object> source = row(sql + "source");
    assertEquals(List.of(12L, 0L, 12L, "------------"), List.of(source.get(0), source.get(1), source.get(2), source.get(4)));
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, TableReader.of(table, allocator), stream);
      duck.registerArrowStream("zarr", stream);
      assertEquals(source, row(sql + "zarr"));
    }
  }

  private List<Object> row(String sql) throws Exception {
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      List<Object> row = new ArrayList<>();
      for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
        row.add(rs.getObject(c));
      }
      return row;
    }
  }
}
