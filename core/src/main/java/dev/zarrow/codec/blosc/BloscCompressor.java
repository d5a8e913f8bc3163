package dev.zarrow.codec.blosc;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The compressors of c-blosc 1.x by name, with the code of the library format that a chunk's header
 * flags carry (bits 5-7): lz4 and lz4hc share the LZ4 block format.
 */
public enum BloscCompressor {
  BLOSCLZ("blosclz", 0),
  LZ4("lz4", 1),
  LZ4HC("lz4hc", 1),
  /** Known by name so that it is refused by name: zarrow has no Snappy decoder. */
  SNAPPY("snappy", 2),
  ZLIB("zlib", 3),
  ZSTD("zstd", 4);

  private final String cname;
  private final int format;

  BloscCompressor(String cname, int format) {
    this.cname = cname;
    this.format = format;
  }

  /** The name used in configurations ({@code cname}). */
  public String cname() {
    return cname;
  }

  /** The library format code stored in the header flags. */
  int format() {
    return format;
  }

  /** True for the compressors zarrow can decode. */
  public boolean decodable() {
    return this != SNAPPY;
  }

  /** True for the compressors zarrow can encode with. */
  public boolean encodable() {
    return this != SNAPPY;
  }

  /** The compressor named {@code cname} (case-sensitive, as c-blosc), if it is one. */
  public static Optional<BloscCompressor> byName(String cname) {
    return Arrays.stream(values()).filter(c -> c.cname.equals(cname)).findFirst();
  }

  /** The compressor whose chunks carry library format {@code format}; lz4hc chunks read as lz4. */
  static Optional<BloscCompressor> byFormat(int format) {
    return Arrays.stream(values()).filter(c -> c.format == format && c != LZ4HC).findFirst();
  }

  /** The names of the compressors that {@code which} accepts, for error messages. */
  static String names(java.util.function.Predicate<BloscCompressor> which) {
    return Arrays.stream(values()).filter(which).map(c -> c.cname).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return cname.toLowerCase(Locale.ROOT);
  }
}
