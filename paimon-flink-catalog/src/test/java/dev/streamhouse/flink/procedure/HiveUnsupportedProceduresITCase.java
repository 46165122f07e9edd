package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.catalog.testutils.HiveMetastores;
import dev.streamhouse.testing.hive.HiveMetastoreExtension;

import java.util.Map;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link UnsupportedProceduresITCase} on a catalog whose databases and tables are registered in a real Hive metastore. */
class HiveUnsupportedProceduresITCase extends UnsupportedProceduresITCase {
    @RegisterExtension
    static final HiveMetastoreExtension METASTORE = HiveMetastoreExtension.sharedPerJvm();

    @Override
    protected Map<String, String> catalogOptions() {
        return HiveMetastores.onHive(super.catalogOptions());
    }
}
