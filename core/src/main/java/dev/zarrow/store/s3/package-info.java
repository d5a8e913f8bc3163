/**
 * S3-compatible object stores ({@link dev.zarrow.store.s3.S3Store}) on the AWS SDK for Java v2, an
 * optional dependency: {@link dev.zarrow.store.s3.S3Provider} names no SDK type, so {@code s3://} without
 * the SDK is a clear error, not a class loading failure.
 *
 * <p>Layer: a store implementation; uses {@code dev.zarrow.store}, {@code dev.zarrow.error} and the SDK.
 */
package dev.zarrow.store.s3;
