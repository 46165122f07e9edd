package dev.streamhouse.flink.source.compat;

/**
 * The base of our Flink {@code RowData}/{@code ArrayData} views for what differs per Flink line.
 * Flink 1.x has no VARIANT type, so there is nothing here.
 */
public abstract class VariantAccess {}
