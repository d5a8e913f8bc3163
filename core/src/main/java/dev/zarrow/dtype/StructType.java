package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.vector.Fields;
import dev.zarrow.vector.Packed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * {@code struct} (zarr-extensions; numpy structured dtypes): packed records of named fixed-size fields,
 * in order, with no padding; every multi-byte field in the {@code bytes} codec's byte order.
 *
 * <pre>
 * {"name": "struct", "configuration": {"fields": [{"name": "x", "data_type": "float32"},
 *                                                 {"name": "t", "data_type": {"name": "numpy.datetime64", ...}}]}}
 * </pre>
 *
 * <p>The legacy name {@code structured} (zarr-python 3 before {@code struct}), with fields as
 * {@code [name, data_type]} pairs, is read too and written as {@code struct}. Field types are the core
 * fixed-size types and the fixed-size numpy types ({@link NumpyTypes}), nested structs included, and
 * numpy's sub-array fields ({@link SubarrayType}).
 *
 * <p>Arrow form: a Struct (not nullable) of the fields' Arrow forms. Fill value: an object with each
 * field's fill value; a base64 string of the packed little-endian bytes (legacy) is read too.
 */
public final class StructType extends ConvertedType {
  public static final String NAME = "struct";
  public static final String LEGACY_NAME = "structured";
  private static final int MAX_BYTES = 1 << 24;

  /** One named field. */
  public record Member(String name, FixedWidthType type) {}

  private final List<Member> members;
  private final int[] offsets;
  private final int width;

  private StructType(List<Member> members) {
    this.members = List.copyOf(members);
    this.offsets = new int[members.size()];
    long at = 0;
    for (int i = 0; i < members.size(); i++) {
      offsets[i] = (int) at;
      at += members.get(i).type().byteWidth();
      if (at > MAX_BYTES) {
        throw new MetadataException("/data_type/configuration/fields: a struct of more than " + MAX_BYTES + " bytes");
      }
    }
    this.width = (int) at;
  }

  /** A struct of {@code members}: at least one, names non-empty and distinct. */
  public static StructType of(List<Member> members) {
    String at = "/data_type/configuration/fields";
    if (members.isEmpty()) {
      throw new MetadataException(at + ": a struct needs at least one field");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < members.size(); i++) {
      String name = members.get(i).name();
      if (name.isEmpty() || !names.add(name)) {
        throw new MetadataException(at + "/" + i + "/name: field names must be non-empty and distinct, got \"" + name + "\"");
      }
    }
    return new StructType(members);
  }

  static StructType fromMetadata(NamedConfig metadata) {
    ObjectNode config = metadata.config();
    String at = "/data_type/configuration";
    for (var it = config.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("fields")) {
        throw new MetadataException(at + "/" + key + ": unknown option of data type " + metadata.name());
      }
    }
    JsonNode fields = config.get("fields");
    if (fields == null || !fields.isArray()) {
      throw new MetadataException(at + "/fields: data type " + metadata.name() + " needs an array of fields, got " + Json.kind(fields));
    }
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      String p = at + "/fields/" + i;
      JsonNode f = fields.get(i);
      JsonNode name;
      JsonNode type;
      if (f.isObject()) {
        name = f.get("name");
        type = f.get("data_type");
        for (var it = f.fieldNames(); it.hasNext(); ) {
          String key = it.next();
          if (!key.equals("name") && !key.equals("data_type")) {
            throw new MetadataException(p + "/" + key + ": unknown key of a struct field");
          }
        }
      } else if (f.isArray() && f.size() == 2) { // the legacy [name, data_type]
        name = f.get(0);
        type = f.get(1);
      } else {
        throw new MetadataException(p + ": a field is {\"name\": ..., \"data_type\": ...}, got " + Json.kind(f));
      }
      if (name == null || !name.isTextual()) {
        throw new MetadataException(p + "/name: needs a string, got " + Json.kind(name));
      }
      if (type == null) {
        throw new MetadataException(p + "/data_type: missing");
      }
      members.add(new Member(name.textValue(), NumpyTypes.fixedWidth(NamedConfig.parse(type, p + "/data_type"), p + "/data_type")));
    }
    return of(members);
  }

  public List<Member> members() {
    return members;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public NamedConfig toMetadata() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ArrayNode fields = f.arrayNode();
    for (Member m : members) {
      fields.addObject().put("name", m.name()).set("data_type", m.type().toMetadata().toJson());
    }
    ObjectNode config = f.objectNode();
    config.set("fields", fields);
    return NamedConfig.of(NAME, config);
  }

  @Override
  public int byteWidth() {
    return width;
  }

  @Override
  public int swapUnit() {
    int max = 1;
    for (int u : swapUnits()) {
      max = Math.max(max, u);
    }
    return max;
  }

  @Override
  public int[] swapUnits() {
    int[] units = new int[0];
    for (Member m : members) {
      int[] more = m.type().swapUnits();
      int n = units.length;
      units = Arrays.copyOf(units, n + more.length);
      System.arraycopy(more, 0, units, n, more.length);
    }
    return units;
  }

  @Override
  public Field field(String fieldName) {
    List<Field> children = members.stream().map(m -> m.type().field(m.name())).toList();
    return new Field(fieldName, FieldType.notNullable(ArrowType.Struct.INSTANCE), children);
  }

  @Override
  public FieldVector fromBytes(ArrowBuf data, int count, BufferAllocator allocator) {
    FixedChecks.holds(NAME, data, count, width);
    StructVector struct = (StructVector) Fields.createVector(field(""), allocator);
    try {
      for (int i = 0; i < members.size(); i++) {
        FixedWidthType type = members.get(i).type();
        try (ArrowBuf part = Packed.gather(data, count, width, offsets[i], type.byteWidth(), allocator);
            FieldVector child = type.fromBytes(part, count, allocator)) {
          child.makeTransferPair(struct.getChildByOrdinal(i)).transfer();
        }
      }
      struct.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(allocator.getEmpty()));
      return struct;
    } catch (RuntimeException e) {
      struct.close();
      throw e;
    }
  }

  @Override
  public ByteBuffer toBytes(FieldVector vector) {
    if (!(vector instanceof StructVector struct) || struct.size() != members.size()) {
      throw new IllegalArgumentException("data type " + this + " needs an Arrow struct of " + members.size()
          + " fields, got " + vector.getField());
    }
    if (Buffers.hasNulls(struct)) {
      throw new IllegalArgumentException("data type " + NAME + " cannot store null records (" + struct.getNullCount() + " found)");
    }
    int count = struct.getValueCount();
    ByteBuffer out = ByteBuffer.allocateDirect(Math.toIntExact((long) count * width)).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < members.size(); i++) {
      FieldVector child = (FieldVector) struct.getChildByOrdinal(i);
      if (child.getValueCount() < count) {
        throw new IllegalArgumentException("struct field " + members.get(i).name() + " has " + child.getValueCount()
            + " values, fewer than the struct's " + count);
      }
      ByteBuffer bytes = members.get(i).type().toBytes(child);
      Packed.scatter(bytes, count, members.get(i).type().byteWidth(), out, width, offsets[i]);
    }
    return out;
  }

  @Override
  public FillValue defaultFill() {
    ByteBuffer out = ByteBuffer.allocate(width);
    members.forEach(m -> out.put(m.type().defaultFill().bytes()));
    return FillValue.of(out.array());
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    if (json.isTextual()) { // legacy: base64 of the packed little-endian bytes
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(json.textValue());
      } catch (IllegalArgumentException e) {
        throw badFill(json, "an object of field fill values or base64 of " + width + " bytes");
      }
      if (bytes.length != width) {
        throw badFill(json, "base64 of exactly " + width + " bytes, not " + bytes.length);
      }
      return FillValue.of(bytes);
    }
    if (!json.isObject()) {
      throw badFill(json, "an object with a fill value for each field");
    }
    for (var it = json.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (members.stream().noneMatch(m -> m.name().equals(key))) {
        throw new MetadataException("/fill_value/" + key + ": the struct has no field of that name");
      }
    }
    ByteBuffer out = ByteBuffer.allocate(width);
    for (Member m : members) {
      JsonNode value = json.get(m.name());
      if (value == null) {
        throw new MetadataException("/fill_value/" + m.name() + ": missing (a struct's fill value names every field)");
      }
      try {
        out.put(m.type().parseFill(value).bytes());
      } catch (MetadataException e) {
        throw new MetadataException(e.getMessage().replaceFirst("^/fill_value", "/fill_value/" + m.name()));
      }
    }
    return FillValue.of(out.array());
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    byte[] bytes = rawBytes(fill);
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < members.size(); i++) {
      Member m = members.get(i);
      byte[] part = Arrays.copyOfRange(bytes, offsets[i], offsets[i] + m.type().byteWidth());
      out.set(m.name(), m.type().fillToJson(FillValue.of(part)));
    }
    return out;
  }
}
