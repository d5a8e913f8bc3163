/**
 * How zarrow is extended: a {@link dev.zarrow.spi.ZarrPlugin} contributes codecs and data types, found
 * through {@link java.util.ServiceLoader} or added by hand; the immutable {@link dev.zarrow.spi.Registry}
 * finds them by name and gives codec factories their context.
 *
 * <p>Layer: above {@code codec} and {@code dtype}; below the codec implementations, whose plugins it
 * finds without importing them.
 */
package dev.zarrow.spi;
