package dev.streamhouse.storage.maintenance.health;

/**
 * How urgently a {@link HealthFinding} needs attention, most urgent first.
 * <ul>
 *   <li>{@code HIGH}: writes stall or storage/metadata grows without bound until it is fixed;</li>
 *   <li>{@code MEDIUM}: reads or writes are measurably slower, or space is wasted, and the table's own
 *       maintenance is not catching up;</li>
 *   <li>{@code LOW}: worth doing when convenient.</li>
 * </ul>
 */
public enum Severity {
    HIGH,
    MEDIUM,
    LOW
}
