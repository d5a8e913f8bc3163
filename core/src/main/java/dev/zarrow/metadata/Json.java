package dev.zarrow.metadata;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The one JSON configuration of zarrow: exact numbers, bounded documents, stable output. */
public final class Json {
  /** Metadata documents larger than this are refused before parsing. */
  public static final int MAX_DOCUMENT_BYTES = 64 << 20;

  /** Nesting deeper than this is refused (nested Arrow types are far shallower). */
  public static final int MAX_DEPTH = 256;

  /**
   * The parser and generator of every document: bounded size and depth, no NaN or Infinity. Documents
   * are parsed into trees and written from them without data binding: an {@link ObjectMapper} takes
   * a short command longer to set up (hundreds of classes) than reading its metadata ({@link #mapper}).
   */
  public static final JsonFactory FACTORY = factory();

  private static JsonFactory factory() {
    return JsonFactory.builder()
        .streamReadConstraints(
            StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH)
                .maxDocumentLength(MAX_DOCUMENT_BYTES)
                .build())
        .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .build();
  }

  /** Data binding with the same settings, made on first use; duplicate keys and trailing tokens are refused. */
  public static ObjectMapper mapper() {
    return Mapper.INSTANCE;
  }

  private static final class Mapper {
    static final ObjectMapper INSTANCE =
        JsonMapper.builder(factory())
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
  }

  /** Two-space indentation, objects and arrays alike, as zarr-python writes. */
  private static DefaultPrettyPrinter prettyPrinter() {
    return new DefaultPrettyPrinter()
        .withObjectIndenter(new DefaultIndenter("  ", "\n"))
        .withArrayIndenter(new DefaultIndenter("  ", "\n"));
  }

  private Json() {}

  /**
   * {@link #pretty}, but with non-ASCII characters escaped: for Zarr v2 documents, which zarr-python 2
   * decodes as ASCII (a raw UTF-8 byte beyond 127 fails there).
   */
  public static byte[] prettyAscii(JsonNode node) {
    return pretty(node, true);
  }

  /** Parses a document; {@code what} (e.g. the key) names it in errors. */
  public static JsonNode parse(ByteBuffer bytes, String what) {
    if (bytes.remaining() > MAX_DOCUMENT_BYTES) {
      throw new MetadataException(what + ": document of " + bytes.remaining() + " bytes exceeds the limit of " + MAX_DOCUMENT_BYTES);
    }
    byte[] array = new byte[bytes.remaining()];
    bytes.duplicate().get(array);
    return parse(array, what);
  }

  /**
   * Parses a document of UTF-8 bytes; {@code what} (e.g. the key) names it in errors. The bytes are
   * decoded as strict UTF-8 first (RFC 8259 documents are UTF-8): an overlong form ({@code C0 80}), an
   * encoded surrogate or a byte that starts nothing is refused naming its offset, where Jackson's own
   * decoder would let the first two through; a leading byte order mark is ignored, as RFC 8259 allows.
   */
  public static JsonNode parse(byte[] bytes, String what) {
    String text = strictUtf8(bytes, what);
    try (JsonParser p = FACTORY.createParser(text)) {
      if (p.nextToken() == null) {
        throw new MetadataException(what + ": empty document");
      }
      JsonNode node = tree(p, what);
      JsonToken trailing = p.nextToken();
      if (trailing != null) {
        throw new MetadataException(what + ": not valid JSON: " + trailing.asString() + " after the document" + at(p));
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new MetadataException(what + ": not valid JSON: " + reason(e), e);
    } catch (java.io.IOException e) {
      throw new MetadataException(what + ": cannot read JSON: " + e.getMessage(), e);
    }
  }

  /** The value that starts at the parser's current token, as Jackson's own tree reader makes it. */
  private static JsonNode tree(JsonParser p, String what) throws java.io.IOException {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    switch (p.currentToken()) {
      case START_OBJECT: {
        ObjectNode object = nodes.objectNode();
        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
          p.nextToken();
          if (object.replace(key, tree(p, what)) != null) {
            throw new MetadataException(what + ": not valid JSON: duplicate key \"" + key + "\"" + at(p));
          }
        }
        return object;
      }
      case START_ARRAY: {
        ArrayNode array = nodes.arrayNode();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          array.add(tree(p, what));
        }
        return array;
      }
      case VALUE_STRING:
        return nodes.textNode(p.getText());
      case VALUE_NUMBER_INT:
        return switch (p.getNumberType()) {
          case INT -> nodes.numberNode(p.getIntValue());
          case LONG -> nodes.numberNode(p.getLongValue());
          default -> nodes.numberNode(p.getBigIntegerValue());
        };
      case VALUE_NUMBER_FLOAT:
        return nodes.numberNode(p.getDoubleValue());
      case VALUE_TRUE:
        return nodes.booleanNode(true);
      case VALUE_FALSE:
        return nodes.booleanNode(false);
      case VALUE_NULL:
        return nodes.nullNode();
      default:
        throw new MetadataException(what + ": not valid JSON: unexpected " + p.currentToken() + at(p));
    }
  }

  private static String at(JsonParser p) {
    JsonLocation at = p.currentLocation();
    return " (at line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }

  /** Writes {@code node} with {@code g} (one of {@link #FACTORY}'s, which has no data binding). */
  public static void writeTree(JsonGenerator g, JsonNode node) throws java.io.IOException {
    switch (node.getNodeType()) {
      case OBJECT -> {
        g.writeStartObject();
        for (var entry : node.properties()) {
          g.writeFieldName(entry.getKey());
          writeTree(g, entry.getValue());
        }
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (JsonNode element : node) {
          writeTree(g, element);
        }
        g.writeEndArray();
      }
      case STRING -> g.writeString(node.textValue());
      case NUMBER -> {
        switch (node.numberType()) {
          case INT -> g.writeNumber(node.intValue());
          case LONG -> g.writeNumber(node.longValue());
          case BIG_INTEGER -> g.writeNumber(node.bigIntegerValue());
          case FLOAT -> g.writeNumber(node.floatValue());
          case DOUBLE -> g.writeNumber(node.doubleValue());
          default -> g.writeNumber(node.decimalValue());
        }
      }
      case BOOLEAN -> g.writeBoolean(node.booleanValue());
      case NULL -> g.writeNull();
      case BINARY -> g.writeBinary(node.binaryValue());
      default -> throw new IllegalArgumentException("cannot write a " + node.getNodeType() + " node as JSON");
    }
  }

  /** {@code node} as two-space indented UTF-8 JSON, non-ASCII escaped when {@code ascii}. */
  private static byte[] pretty(JsonNode node, boolean ascii) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.setPrettyPrinter(prettyPrinter());
      if (ascii) {
        g.enable(JsonWriteFeature.ESCAPE_NON_ASCII.mappedFeature());
      }
      writeTree(g, node);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static String strictUtf8(byte[] bytes, String what) {
    int start = bytes.length >= 3 && (bytes[0] & 0xff) == 0xef && (bytes[1] & 0xff) == 0xbb && (bytes[2] & 0xff) == 0xbf ? 3 : 0;
    ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
    CharBuffer out = CharBuffer.allocate(in.remaining()); // UTF-8 never decodes to more chars than bytes
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isUnderflow()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      int at = in.position();
      // The malformed bytes, and the continuation bytes after them (C0 80 is shown whole, not as C0).
      StringBuilder seen = new StringBuilder();
      for (int i = at; i < bytes.length && (i < at + result.length() || i < at + 4 && (bytes[i] & 0xc0) == 0x80); i++) {
        seen.append(seen.length() == 0 ? "" : " ").append(String.format("%02X", bytes[i] & 0xff));
      }
      throw new MetadataException(what + ": not valid UTF-8: bytes " + seen + " at byte offset " + at);
    }
    return out.flip().toString();
  }

  /**
   * Jackson's reason with the place it names as line and column, without the source description it
   * embeds ({@code [Source: REDACTED (...); line: 1, column: 2]}), which says nothing to a user.
   */
  public static String reason(JsonProcessingException e) {
    String reason = String.valueOf(e.getOriginalMessage())
        .replaceAll("\\[Source: [^\\]]*?line: (\\d+), column: (\\d+)\\]", "line $1, column $2")
        .replaceAll("\\s*\\R\\s*", " ").strip();
    JsonLocation at = e.getLocation();
    return at == null || at.getLineNr() < 1 ? reason : reason + " (at line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }

  public static JsonNode parse(String text, String what) {
    return parse(text.getBytes(StandardCharsets.UTF_8), what);
  }

  /** Two-space indented UTF-8, as zarr-python writes it. */
  public static byte[] pretty(JsonNode node) {
    return pretty(node, false);
  }

  /** Compact single-line text. */
  public static String compact(JsonNode node) {
    java.io.StringWriter out = new java.io.StringWriter(); // characters as they are (a byte stream escapes surrogate pairs)
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      writeTree(g, node);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toString();
  }

  /** A short description of a node's kind for error messages. */
  public static String kind(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    return node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT) + " " + abbreviate(compact(node));
  }

  private static String abbreviate(String text) {
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }
}
