package dev.zarrow.metadata;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
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

  public static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(MAX_DEPTH)
                          .maxDocumentLength(MAX_DOCUMENT_BYTES)
                          .build())
                  .build())
          .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final ObjectWriter PRETTY =
      MAPPER.writer(
          new DefaultPrettyPrinter()
              .withObjectIndenter(new DefaultIndenter("  ", "\n"))
              .withArrayIndenter(new DefaultIndenter("  ", "\n")));

  /** As PRETTY, every character beyond ASCII escaped as {@code \\uXXXX}. */
  private static final ObjectWriter PRETTY_ASCII = PRETTY.with(JsonWriteFeature.ESCAPE_NON_ASCII);

  private Json() {}

  /**
   * {@link #pretty}, but with non-ASCII characters escaped: for Zarr v2 documents, which zarr-python 2
   * decodes as ASCII (a raw UTF-8 byte beyond 127 fails there).
   */
  public static byte[] prettyAscii(JsonNode node) {
    try {
      return PRETTY_ASCII.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
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
    try {
      JsonNode node = MAPPER.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new MetadataException(what + ": empty document");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new MetadataException(what + ": not valid JSON: " + reason(e), e);
    } catch (java.io.IOException e) {
      throw new MetadataException(what + ": cannot read JSON: " + e.getMessage(), e);
    }
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
    try {
      return PRETTY.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Compact single-line text. */
  public static String compact(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
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
