/**
 * Zarr over Arrow Flight: {@link dev.zarrow.flight.ZarrFlightProducer} serves the arrays and group
 * tables of a store (one endpoint per shard or chunk row range, tickets any server over the same store
 * redeems) and writes the streams clients put as group tables.
 *
 * <p>Built on the library's exported API only ({@code dev.zarrow}, {@code dev.zarrow.table}, {@code
 * dev.zarrow.store}, {@code dev.zarrow.error}, {@code dev.zarrow.metadata}) and Arrow Flight.
 */
package dev.zarrow.flight;
