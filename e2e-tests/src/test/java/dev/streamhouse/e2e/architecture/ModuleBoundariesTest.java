package dev.streamhouse.e2e.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dependency direction of docs/architecture.md, checked on the compiled main classes: the storage core has no
 * Flink and no Apache Paimon in it, and the Flink modules reach storage only through its engine-facing
 * API ({@link #ENGINE_API_PACKAGES}, {@link #ENGINE_API_CLASSES}), never through its internals
 * (file store, manifests, LSM tree, formats, snapshot and schema managers...). A Flink class that
 * needs more of storage means storage's API is missing something: add it there.
 */
class ModuleBoundariesTest {

    private static final String STORAGE = "dev.streamhouse.storage";

    /** Storage packages whose public classes are all engine API. */
    static final Set<String> ENGINE_API_PACKAGES = Set.of(
            STORAGE, // UnsupportedTableFeatureException
            STORAGE + ".catalog",
            STORAGE + ".commit",
            STORAGE + ".metrics",
            STORAGE + ".table",
            STORAGE + ".table.source",
            STORAGE + ".table.source.aggregate", // aggregates an engine pushes into a read
            STORAGE + ".table.sink",
            STORAGE + ".table.system",
            STORAGE + ".serialization",
            STORAGE + ".data",
            STORAGE + ".data.columnar",
            STORAGE + ".types",
            STORAGE + ".predicate",
            STORAGE + ".options",
            STORAGE + ".reader",
            STORAGE + ".maintenance.health",
            STORAGE + ".maintenance.optimize");

    /** Single engine-facing classes of otherwise internal packages. */
    static final Set<String> ENGINE_API_CLASSES = Set.of(
            STORAGE + ".schema.Schema", STORAGE + ".schema.Schema$Builder",
            STORAGE + ".schema.SchemaChange",
            STORAGE + ".schema.TableSchema",
            STORAGE + ".schema.SchemaChangeException",
            STORAGE + ".schema.SchemaChangeConflictException",
            STORAGE + ".snapshot.Snapshot",
            STORAGE + ".snapshot.CommitKind",
            STORAGE + ".snapshot.ExpiredSnapshotException",
            // a damaged file fails a read with these; the SQL runner shows them (DamagedFileErrors)
            STORAGE + ".fs.CorruptFileException", STORAGE + ".read.CorruptDataFileException",
            // the files of a DataSplit (version 1 source splits are converted into them)
            STORAGE + ".manifest.DataFileMeta",
            STORAGE + ".manifest.FileSource",
            STORAGE + ".stats.SimpleStats",
            // the routing contract between a dynamic-bucket sink's partitioner and its writers
            STORAGE + ".bucket.dynamic.AssignerRouting",
            // the cache of a lookup join, which the Flink lookup functions drive
            STORAGE + ".lookup.LookupTable", STORAGE + ".lookup.LookupTable$Settings",
            // Paimon's hash finalizer, for bucket-affine split assignment
            STORAGE + ".utils.MurmurHash",
            // the entry point of each table maintenance package (procedures and maintenance jobs call them)
            STORAGE + ".maintenance.expire.TableExpiration",
            // (with their nested types), not the engines behind them (SnapshotExpiration, TagManager, ...)
            STORAGE + ".maintenance.tag.TableTags",
            STORAGE + ".maintenance.consumer.TableConsumers",
            STORAGE + ".maintenance.rollback.TableRollback",
            STORAGE + ".maintenance.orphan.TableOrphanFiles",
            STORAGE + ".maintenance.partition.TablePartitionExpiration",
            STORAGE + ".maintenance.partition.TablePartitionMarkDone");

    /** Internal classes that happen to live in an API package. */
    static final Set<String> INTERNAL_CLASSES = Set.of(STORAGE + ".table.FileStoreTable");

    private static JavaClasses mainClasses;

    @BeforeAll
    static void importMainClasses() {
        mainClasses = new ClassFileImporter().withImportOption(ModuleBoundariesTest::isMainCode)
                .importPackages("dev.streamhouse");
    }

    /** Main code only: not the test classes of any module, not the storage test jar. */
    private static boolean isMainCode(Location location) {
        String uri = location.asURI().toString();
        return !uri.contains("/test-classes/") && !uri.contains("-tests.jar");
    }

    @Test
    void importsTheModulesItChecks() {
        // Guards against a rule that passes because it saw nothing.
        assertThat(mainClasses.containPackage("dev.streamhouse.flink.sink")).isTrue();
        assertThat(mainClasses.containPackage("dev.streamhouse.flink.source")).isTrue();
        assertThat(mainClasses.containPackage("dev.streamhouse.flink.catalog")).isTrue();
        assertThat(mainClasses.containPackage(STORAGE + ".operation")).isTrue();
        assertThat(mainClasses.stream().noneMatch(c -> c.getName().contains("Test"))).isTrue();
    }

    @Test
    void flinkModulesUseOnlyTheEngineApiOfStorage() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.streamhouse.flink..")
                .should().dependOnClassesThat(storageInternals())
                .because("the Flink modules talk to storage through its engine API (Table, ReadBuilder, "
                        + "TableWrite, commits, serializers, system tables); see docs/architecture.md");
        rule.check(mainClasses);
    }

    @Test
    void storageHasNoFlink() {
        noClasses().that().resideInAPackage(STORAGE + "..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.flink..")
                .check(mainClasses);
    }

    @Test
    void noMainCodeUsesApachePaimon() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.apache.paimon..").check(mainClasses);
    }

    @Test
    void theInternalsPredicateRejectsTheFileStoreAndAcceptsTheApi() {
        DescribedPredicate<JavaClass> internals = storageInternals();
        assertThat(internals.test(mainClasses.get(STORAGE + ".table.FileStoreTable"))).isTrue();
        assertThat(internals.test(mainClasses.get(STORAGE + ".schema.SchemaManager"))).isTrue();
        assertThat(internals.test(mainClasses.get(STORAGE + ".snapshot.SnapshotManager"))).isTrue();
        assertThat(internals.test(mainClasses.get(STORAGE + ".maintenance.consumer.ConsumerManager"))).isTrue();
        assertThat(internals.test(mainClasses.get(STORAGE + ".maintenance.expire.SnapshotExpiration"))).isTrue();
        assertThat(internals.test(mainClasses.get(STORAGE + ".maintenance.expire.TableExpiration"))).isFalse();
        assertThat(internals.test(mainClasses.get(STORAGE + ".maintenance.orphan.TableOrphanFiles$Result"))).isFalse();
        assertThat(internals.test(mainClasses.get(STORAGE + ".maintenance.health.TableHealth"))).isFalse();
        assertThat(internals.test(mainClasses.get(STORAGE + ".table.Table"))).isFalse();
        assertThat(internals.test(mainClasses.get(STORAGE + ".table.source.ReadBuilder"))).isFalse();
        assertThat(internals.test(mainClasses.get(STORAGE + ".schema.TableSchema"))).isFalse();
    }

    @Test
    void flinkLineDifferencesStayInCompatPackages() {
        assertThat(mainClasses.containPackage("dev.streamhouse.flink.sink.compat")).isTrue();
        assertThat(mainClasses.containPackage("dev.streamhouse.flink.source.compat")).isTrue();
        noClasses().that().resideOutsideOfPackage("..compat..")
                .should().accessTargetWhere(lineSpecificFlinkApi())
                .orShould().dependOnClassesThat().resideInAPackage("org.apache.flink.types.variant..")
                .because("what differs between Flink 1.20 and 2.x lives in the per-line source folders'"
                        + " compat packages (docs/architecture.md, \"Two Flink lines\")")
                .check(mainClasses);
    }

    /** Flink APIs that exist on one line only, or with another signature on the other. */
    private static DescribedPredicate<JavaAccess<?>> lineSpecificFlinkApi() {
        Set<String> members = Set.of(
                "org.apache.flink.streaming.api.graph.StreamConfig#isCheckpointingEnabled",
                "org.apache.flink.configuration.CheckpointingOptions#isCheckpointingEnabled",
                "org.apache.flink.runtime.operators.coordination.CoordinationRequestGateway#sendCoordinationRequest");
        return DescribedPredicate.describe("is a Flink API that differs between Flink lines",
                a -> members.contains(a.getTargetOwner().getName() + "#" + a.getName()));
    }

    private static DescribedPredicate<JavaClass> storageInternals() {
        return DescribedPredicate.describe("are storage internals", c -> {
            String name = c.getName();
            if (!name.startsWith(STORAGE + ".")) {
                return false;
            }
            String outer = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
            if (INTERNAL_CLASSES.contains(outer)) {
                return true;
            }
            return !ENGINE_API_PACKAGES.contains(c.getPackageName()) && !ENGINE_API_CLASSES.contains(name)
                    && !ENGINE_API_CLASSES.contains(outer);
        });
    }
}
