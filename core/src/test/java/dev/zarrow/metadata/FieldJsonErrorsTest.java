package dev.zarrow.metadata;

import dev.zarrow.testing.ArrowJsonFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.testing.Seeds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed field JSON: the right exception, the JSON pointer first in its message, no other. */
class FieldJsonErrorsTest {
  private static final String INT32 = "{'name':'int','isSigned':true,'bitWidth':32}";
  private static final String UTF8 = "{'name':'utf8'}";

  /** A field named {@code name} of {@code type} with {@code children}, in single-quoted JSON. */
  private static String field(String name, String type, String... children) {
    return "{'name':'" + name + "','type':" + type + ",'nullable':true,'children':["
        + String.join(",", children) + "]}";
  }

  /** A field with one extra member spelled by {@code extra} (for example {@code 'metadata':[]}). */
  private static String fieldWith(String type, String extra) {
    return "{'name':'f','type':" + type + ",'nullable':true,'children':[]," + extra + "}";
  }

  private static JsonNode json(String singleQuoted) {
    try {
      return ArrowJsonFiles.MAPPER.readTree(singleQuoted.replace('\'', '"'));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Stream<Arguments> malformedFields() {
    Class<MetadataException> bad = MetadataException.class;
    Class<UnsupportedExtensionException> unsupported = UnsupportedExtensionException.class;
    String runEndsNullable = field("r", "{'name':'runendencoded'}",
        field("run_ends", "{'name':'int','isSigned':true,'bitWidth':32}"), field("values", UTF8));
    return Stream.of(
        Arguments.of("[]", bad, "(root)"),
        Arguments.of("'field'", bad, "(root)"),
        Arguments.of("{}", bad, "/name"),
        Arguments.of("{'name':'a','nullable':true}", bad, "/type"),
        Arguments.of("{'name':1,'type':" + INT32 + ",'nullable':true}", bad, "/name"),
        Arguments.of("{'name':null,'type':" + INT32 + ",'nullable':true}", bad, "/name"),
        Arguments.of("{'name':'a','type':" + INT32 + "}", bad, "/nullable"),
        Arguments.of("{'name':'a','type':" + INT32 + ",'nullable':'yes'}", bad, "/nullable"),
        Arguments.of(field("a", "'int'"), bad, "/type"),
        Arguments.of(field("a", "{'isSigned':true}"), bad, "/type/name"),
        Arguments.of(field("a", "{'name':7}"), bad, "/type/name"),
        Arguments.of(field("a", "{'name':'foo'}"), unsupported, "/type/name"),
        Arguments.of(field("a", "{'name':'Int','isSigned':true,'bitWidth':32}"), unsupported,
            "/type/name"),
        Arguments.of(field("a", "{'name':'int','isSigned':true,'bitWidth':12}"), bad,
            "/type/bitWidth"),
        Arguments.of(field("a", "{'name':'int','isSigned':true,'bitWidth':'8'}"), bad,
            "/type/bitWidth"),
        Arguments.of(field("a", "{'name':'int','isSigned':true,'bitWidth':8.0}"), bad,
            "/type/bitWidth"),
        Arguments.of(field("a", "{'name':'int','isSigned':true,'bitWidth':"
            + BigInteger.TEN.pow(30) + "}"), bad, "/type/bitWidth"),
        Arguments.of(field("a", "{'name':'int','bitWidth':8}"), bad, "/type/isSigned"),
        Arguments.of(field("a", "{'name':'int','isSigned':true,'bitWidth':8,'extra':1}"), bad,
            "/type/extra"),
        Arguments.of(field("a", "{'name':'utf8','bitWidth':8}"), bad, "/type/bitWidth"),
        Arguments.of(fieldWith(INT32, "'foo':1"), bad, "/foo"),
        Arguments.of(fieldWith(INT32, "'a/b~':1"), bad, "/a~1b~0"),
        Arguments.of("{'name':'a','type':" + INT32 + ",'nullable':true,'children':{}}", bad,
            "/children"),
        Arguments.of(field("s", "{'name':'struct'}", field("ok", INT32),
            field("bad", "{'name':'int','isSigned':true,'bitWidth':12}")), bad,
            "/children/1/type/bitWidth"),
        Arguments.of(field("s", "{'name':'struct'}", "3"), bad, "/children/0"),
        Arguments.of(field("s", "{'name':'struct'}",
            field("l", "{'name':'list'}", field("x", "{'name':'foo'}"))), unsupported,
            "/children/0/children/0/type/name"),
        Arguments.of(field("l", "{'name':'list'}"), bad, "/children"),
        Arguments.of(field("l", "{'name':'fixedsizelist','listSize':2}", field("a", INT32),
            field("b", INT32)), bad, "/children"),
        Arguments.of(field("i", INT32, field("c", INT32)), bad, "/children"),
        Arguments.of(field("m", "{'name':'map','keysSorted':false}", field("e", INT32)), bad,
            "/children/0"),
        Arguments.of(field("m", "{'name':'map','keysSorted':false}",
            field("e", "{'name':'struct'}", field("key", UTF8))), bad, "/children/0"),
        Arguments.of(runEndsNullable, bad, "/children/0"),
        Arguments.of(field("r", "{'name':'runendencoded'}", field("values", UTF8)), bad,
            "/children"),
        Arguments.of(field("u", "{'name':'union','mode':'SPARSE','typeIds':[1,1]}",
            field("a", INT32), field("b", UTF8)), bad, "/type/typeIds/1"),
        Arguments.of(field("u", "{'name':'union','mode':'SPARSE','typeIds':[128]}",
            field("a", INT32)), bad, "/type/typeIds/0"),
        Arguments.of(field("u", "{'name':'union','mode':'SPARSE','typeIds':[1]}",
            field("a", INT32), field("b", UTF8)), bad, "/children"),
        Arguments.of(field("u", "{'name':'union','mode':'MIXED','typeIds':[]}"), bad,
            "/type/mode"),
        Arguments.of(field("u", "{'name':'union','typeIds':[]}"), bad, "/type/mode"),
        Arguments.of(field("u", "{'name':'union','mode':'DENSE','typeIds':'1'}"), bad,
            "/type/typeIds"),
        Arguments.of(field("f", "{'name':'floatingpoint','precision':'QUAD'}"), bad,
            "/type/precision"),
        Arguments.of(field("d", "{'name':'decimal','precision':5,'scale':2,'bitWidth':32}"),
            unsupported, "/type/bitWidth"),
        Arguments.of(field("d", "{'name':'decimal','precision':5,'scale':2,'bitWidth':64}"),
            unsupported, "/type/bitWidth"),
        Arguments.of(field("d", "{'name':'decimal','precision':5,'scale':2,'bitWidth':100}"),
            bad, "/type/bitWidth"),
        Arguments.of(field("d", "{'name':'decimal','precision':39,'scale':2,'bitWidth':128}"),
            bad, "/type/precision"),
        Arguments.of(field("d", "{'name':'decimal','precision':0,'scale':0}"), bad,
            "/type/precision"),
        Arguments.of(field("d", "{'name':'decimal','precision':5}"), bad, "/type/scale"),
        Arguments.of(field("t", "{'name':'time','unit':'SECOND','bitWidth':64}"), bad,
            "/type/bitWidth"),
        Arguments.of(field("t", "{'name':'time','unit':'NANOSECOND','bitWidth':32}"), bad,
            "/type/bitWidth"),
        Arguments.of(field("t", "{'name':'timestamp','unit':'SECOND','timezone':5}"), bad,
            "/type/timezone"),
        Arguments.of(field("t", "{'name':'timestamp'}"), bad, "/type/unit"),
        Arguments.of(field("d", "{'name':'date','unit':'WEEK'}"), bad, "/type/unit"),
        Arguments.of(field("d", "{'name':'duration','unit':['SECOND']}"), bad, "/type/unit"),
        Arguments.of(field("i", "{'name':'interval','unit':'DAY'}"), bad, "/type/unit"),
        Arguments.of(field("b", "{'name':'fixedsizebinary','byteWidth':-1}"), bad,
            "/type/byteWidth"),
        Arguments.of(field("l", "{'name':'fixedsizelist'}", field("a", INT32)), bad,
            "/type/listSize"),
        Arguments.of(field("m", "{'name':'map'}"), bad, "/type/keysSorted"),
        Arguments.of(fieldWith(UTF8, "'dictionary':[]"), bad, "/dictionary"),
        Arguments.of(fieldWith(UTF8, "'dictionary':{'indexType':" + INT32 + "}"), bad,
            "/dictionary/id"),
        Arguments.of(fieldWith(UTF8, "'dictionary':{'id':'x'}"), bad, "/dictionary/id"),
        Arguments.of(fieldWith(UTF8, "'dictionary':{'id':0,'indexType':" + UTF8 + "}"), bad,
            "/dictionary/indexType"),
        Arguments.of(fieldWith(UTF8, "'dictionary':{'id':0,'indexType':"
            + "{'name':'int','isSigned':true,'bitWidth':7}}"), bad,
            "/dictionary/indexType/bitWidth"),
        Arguments.of(fieldWith(UTF8, "'dictionary':{'id':0,'isOrdered':1}"), bad,
            "/dictionary/isOrdered"),
        Arguments.of(fieldWith(UTF8, "'dictionary':{'id':0,'extra':0}"), bad,
            "/dictionary/extra"),
        Arguments.of(fieldWith(INT32, "'metadata':{}"), bad, "/metadata"),
        Arguments.of(fieldWith(INT32, "'metadata':['k']"), bad, "/metadata/0"),
        Arguments.of(fieldWith(INT32, "'metadata':[{'key':'k'}]"), bad, "/metadata/0/value"),
        Arguments.of(fieldWith(INT32, "'metadata':[{'key':'k','value':1}]"), bad,
            "/metadata/0/value"),
        Arguments.of(fieldWith(INT32, "'metadata':[{'key':'k','value':'v','x':''}]"), bad,
            "/metadata/0/x"),
        Arguments.of(fieldWith(INT32,
            "'metadata':[{'key':'k','value':'1'},{'key':'k','value':'2'}]"), bad,
            "/metadata/1/key"));
  }

  @ParameterizedTest
  @MethodSource("malformedFields")
  void malformedFieldIsRefusedWithItsPointer(
      String json, Class<? extends ZarrException> expected, String pointer) {
    ZarrException e = assertThrows(expected, () -> FieldJson.parse(json(json)));
    assertTrue(e.getMessage().startsWith(pointer + ": "), e.getMessage());
  }

  static Stream<Arguments> malformedSchemas() {
    return Stream.of(
        Arguments.of("[]", "(root)"),
        Arguments.of("{}", "/fields"),
        Arguments.of("{'fields':{}}", "/fields"),
        Arguments.of("{'fields':[" + field("a", INT32) + ",{'name':'b'}]}", "/fields/1/type"),
        Arguments.of("{'fields':[],'metadata':[{'key':'a'}]}", "/metadata/0/value"),
        Arguments.of("{'fields':[],'extra':1}", "/extra"));
  }

  @ParameterizedTest
  @MethodSource("malformedSchemas")
  void malformedSchemaIsRefusedWithItsPointer(String json, String pointer) {
    MetadataException e =
        assertThrows(MetadataException.class, () -> FieldJson.parseSchema(json(json)));
    assertTrue(e.getMessage().startsWith(pointer + ": "), e.getMessage());
  }

  @Test
  void pointerOfTheEnclosingDocumentPrefixesMessages() {
    JsonNode bad = json(field("a", "{'name':'int','isSigned':true,'bitWidth':12}"));
    MetadataException e = assertThrows(
        MetadataException.class, () -> FieldJson.parse(bad, "/data_type/configuration/field"));
    assertEquals(
        "/data_type/configuration/field/type/bitWidth: expected one of 8, 16, 32, 64, got 12",
        e.getMessage());
  }

  @Test
  void unsupportedTypeNamesWhatIsSupported() {
    JsonNode unknown = json(field("a", "{'name':'x'}"));
    UnsupportedExtensionException e =
        assertThrows(UnsupportedExtensionException.class, () -> FieldJson.parse(unknown));
    assertTrue(e.getMessage().contains("'x'"), e.getMessage());
    assertTrue(e.getMessage().contains("supported: null, bool, int"), e.getMessage());
  }

  @Test
  void nestingIsBoundedAtMaxDepth() {
    assertEquals(FieldJson.MAX_DEPTH, depth(FieldJson.parse(nestedLists(FieldJson.MAX_DEPTH))));
    MetadataException e = assertThrows(
        MetadataException.class, () -> FieldJson.parse(nestedLists(FieldJson.MAX_DEPTH + 1)));
    assertTrue(e.getMessage().startsWith("/children/0".repeat(FieldJson.MAX_DEPTH) + ": "),
        e.getMessage());
    assertThrows(MetadataException.class, () -> FieldJson.parse(nestedLists(100_000)));
  }

  @Test
  void writeRefusesFieldsNestedTooDeep() {
    assertEquals(FieldJson.MAX_DEPTH, depth(FieldJson.parse(
        FieldJson.write(nestedListField(FieldJson.MAX_DEPTH)))));
    assertThrows(
        MetadataException.class, () -> FieldJson.write(nestedListField(FieldJson.MAX_DEPTH + 1)));
    assertThrows(MetadataException.class, () -> FieldJson.write(nestedListField(100_000)));
  }

  @Test
  void writeRefusesWhatItCouldNotReadBack() {
    assertThrows(UnsupportedExtensionException.class,
        () -> FieldJson.write(Field.nullable("d", new ArrowType.Decimal(9, 2, 64))));
    MetadataException noName = assertThrows(MetadataException.class,
        () -> FieldJson.write(Field.nullable(null, ArrowType.Utf8.INSTANCE)));
    assertTrue(noName.getMessage().startsWith("/name: "), noName.getMessage());
    MetadataException badTime = assertThrows(MetadataException.class,
        () -> FieldJson.write(Field.nullable("t", new ArrowType.Time(TimeUnit.SECOND, 64))));
    assertTrue(badTime.getMessage().startsWith("/type/bitWidth: "), badTime.getMessage());
    assertThrows(MetadataException.class,
        () -> FieldJson.write(Field.nullable("l", ArrowType.List.INSTANCE)));
  }

  /**
   * Random damage to real field JSON: parse either refuses it with a ZarrException or accepts it,
   * and then what it accepted writes and reads back to an equal field. Any other exception (a
   * NullPointerException, ClassCastException, ...) fails; the printed seed replays it.
   */
  @Test
  void damagedFieldsFailOnlyWithZarrExceptions() throws IOException {
    Random random = Seeds.random("FieldJson damaged fields");
    List<JsonNode> corpus = new ArrayList<>();
    for (Path fixture : ArrowJsonFiles.fixtureFiles()) {
      for (JsonNode field : ArrowJsonFiles.read(fixture).get("schema").get("fields")) {
        corpus.add(field);
        corpus.add(FieldJson.write(FieldJson.parse(field)));
      }
    }
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      JsonNode damaged = corpus.get(random.nextInt(corpus.size())).deepCopy();
      for (int hits = 1 + random.nextInt(3); hits > 0; hits--) {
        damage(damaged, random);
      }
      try {
        Field field = FieldJson.parse(damaged);
        assertEquals(field, FieldJson.parse(FieldJson.write(field)), damaged::toString);
        accepted++;
      } catch (ZarrException expected) {
        // refused, as it may be
      } catch (RuntimeException | StackOverflowError e) {
        fail("replay with the [seed] printed above; input " + damaged + ": " + e, e);
      }
    }
    System.out.println("FieldJsonErrorsTest: " + accepted + " of 20000 damaged fields accepted");
    assertTrue(accepted > 0 && accepted < 20_000, "damage is neither always nor never fatal");
  }

  private static void damage(JsonNode root, Random random) {
    List<JsonNode> containers = new ArrayList<>();
    collect(root, containers);
    JsonNode target = containers.get(random.nextInt(containers.size()));
    JsonNode replacement = junk(random);
    if (target.isObject()) {
      ObjectNode object = (ObjectNode) target;
      List<String> keys = new ArrayList<>();
      object.fieldNames().forEachRemaining(keys::add);
      int choice = random.nextInt(3);
      if (keys.isEmpty() || choice == 0) {
        object.set(List.of("name", "type", "children", "bitWidth", "id", "extra")
            .get(random.nextInt(6)), replacement);
      } else if (choice == 1) {
        object.remove(keys.get(random.nextInt(keys.size())));
      } else {
        object.set(keys.get(random.nextInt(keys.size())), replacement);
      }
    } else {
      ArrayNode array = (ArrayNode) target;
      if (array.isEmpty() || random.nextBoolean()) {
        array.add(replacement);
      } else if (random.nextBoolean()) {
        array.remove(random.nextInt(array.size()));
      } else {
        array.set(random.nextInt(array.size()), replacement);
      }
    }
  }

  private static void collect(JsonNode node, List<JsonNode> containers) {
    if (node.isContainerNode()) {
      containers.add(node);
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        collect(it.next(), containers);
      }
    }
  }

  private static JsonNode junk(Random random) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    switch (random.nextInt(12)) {
      case 0: return nodes.nullNode();
      case 1: return nodes.textNode("int");
      case 2: return nodes.textNode("");
      case 3: return nodes.numberNode(random.nextInt(300) - 10);
      case 4: return nodes.numberNode(1.5);
      case 5: return nodes.numberNode(BigInteger.TEN.pow(25));
      case 6: return nodes.booleanNode(random.nextBoolean());
      case 7: return nodes.objectNode();
      case 8: return nodes.arrayNode();
      case 9: return nodes.objectNode().put("name", "list");
      case 10: return nodes.numberNode(Long.MIN_VALUE);
      default: return nodes.textNode("SPARSE");
    }
  }

  private static JsonNode nestedLists(int depth) {
    JsonNode node = json(field("leaf", INT32));
    for (int i = 1; i < depth; i++) {
      ObjectNode list = (ObjectNode) json(field("l", "{'name':'list'}"));
      ((ArrayNode) list.get("children")).add(node);
      node = list;
    }
    return node;
  }

  private static Field nestedListField(int depth) {
    Field field = Field.nullable("leaf", new ArrowType.Int(32, true));
    for (int i = 1; i < depth; i++) {
      field = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(field));
    }
    return field;
  }

  private static int depth(Field field) {
    int depth = 1;
    while (!field.getChildren().isEmpty()) {
      field = field.getChildren().get(0);
      depth++;
    }
    return depth;
  }
}
