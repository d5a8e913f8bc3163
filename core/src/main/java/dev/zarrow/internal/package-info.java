/**
 * Small helpers with no API promise: running tasks on an executor without deadlocking when called from
 * one of its own tasks ({@link dev.zarrow.internal.WorkSharing}) and fast UTF-8 validation, decoding batches ahead of a consumer ({@link dev.zarrow.internal.ReadAhead}, shared by the table and dataset readers). Not exported
 * by the module. Also the byte and bit shuffles blosc and numcodecs share ({@link dev.zarrow.internal.Shuffles}) and the
 * request threads and the {@code SCHEME://BUCKET/PATH} locations of the remote stores ({@link
 * dev.zarrow.internal.IoThreads}, {@link dev.zarrow.internal.BucketPaths}).
 *
 * <p>Layer: just above {@code error}; imports no other zarrow package.
 */
package dev.zarrow.internal;
