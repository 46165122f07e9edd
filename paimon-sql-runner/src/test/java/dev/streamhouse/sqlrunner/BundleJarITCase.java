package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks paimon-flink-catalog's bundle jar, the one jar users put into Flink's lib/: what it holds,
 * what it relocates, and that the relocated libraries still work when the jar is used alone next to
 * Flink's own jars.
 */
class BundleJarITCase {
    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Path BUNDLE = Path.of(System.getProperty("streamhouse.bundle",
            "../paimon-flink-catalog/target/paimon-flink-catalog-0.1.0-SNAPSHOT-flink-1.20-bundle.jar")).toAbsolutePath().normalize();

    /** Our own code and the relocated third-party code. */
    private static final String OURS = "dev/streamhouse/";
    private static final String SHADED = "dev/streamhouse/shaded/";
    /**
     * Third-party packages deliberately kept at their names (docs/getting-started.md, "What the bundles hold"): Hadoop's shaded
     * client jars (and S3A), which find their classes by name; zstd-jni and lz4-java, whose native
     * methods are bound to their package names; the AWS SDK, which finds its parts by name.
     */
    private static final List<String> KEPT_UNRELOCATED = List.of(
            "org/apache/hadoop/", "com/github/luben/zstd/", "net/jpountz/", "software/amazon/");
    /** The modules the bundle is made of (paimon-flink-catalog and what it depends on). */
    private static final List<String> MODULES = List.of(
            "paimon-storage", "paimon-s3", "paimon-hive-catalog", "paimon-flink-sink", "paimon-flink-source",
            "paimon-flink-catalog");

    private static ZipFile bundle;
    private static Set<String> entries;

    @TempDir
    Path tmp;

    @org.junit.jupiter.api.extension.RegisterExtension
    static final dev.streamhouse.fs.s3.S3ProxyExtension S3 = new dev.streamhouse.fs.s3.S3ProxyExtension();

    @org.junit.jupiter.api.extension.RegisterExtension
    static final dev.streamhouse.testing.hive.HiveMetastoreExtension METASTORE =
            new dev.streamhouse.testing.hive.HiveMetastoreExtension();

    @BeforeAll
    static void openBundle() throws IOException {
        assertThat(BUNDLE).as("the bundle jar (built by `mvn package` in paimon-flink-catalog)").isRegularFile();
        bundle = new ZipFile(BUNDLE.toFile());
        entries = bundle.stream().map(ZipEntry::getName).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void holdsOurModulesAndTheRelocatedLibraries() {
        assertThat(entries).contains(
                "dev/streamhouse/storage/catalog/CatalogFactory.class",
                "dev/streamhouse/shaded/org/apache/parquet/hadoop/ParquetWriter.class",
                "dev/streamhouse/shaded/org/apache/avro/Schema.class",
                "dev/streamhouse/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
                "dev/streamhouse/shaded/org/apache/commons/compress/compressors/CompressorStreamFactory.class",
                "dev/streamhouse/shaded/org/roaringbitmap/longlong/Roaring64Bitmap.class",
                "dev/streamhouse/shaded/org/apache/datasketches/hll/HllSketch.class",
                "dev/streamhouse/shaded/org/apache/datasketches/memory/Memory.class",
                "org/apache/hadoop/conf/Configuration.class",
                "org/apache/hadoop/fs/s3a/S3AFileSystem.class",
                "org/apache/hadoop/hdfs/DistributedFileSystem.class",
                "software/amazon/awssdk/services/s3/S3Client.class",
                "dev/streamhouse/shaded/org/apache/http/impl/client/HttpClientBuilder.class",
                "com/github/luben/zstd/Zstd.class",
                "dev/streamhouse/shaded/org/apache/hadoop/hive/metastore/HiveMetaStoreClient.class",
                "dev/streamhouse/shaded/org/apache/thrift/TBase.class",
                "dev/streamhouse/shaded/com/google/common/collect/ImmutableList.class",
                "net/jpountz/lz4/LZ4Factory.class");
        assertThat(entries.stream().filter(e -> e.startsWith(SHADED) && e.endsWith(".class")).count())
                .as("relocated third-party classes").isGreaterThan(5_000);
        assertThat(JarListings.classesOf(ROOT.resolve("paimon-storage/target/classes"))).isNotEmpty();
        for (String module : MODULES) {
            for (String ourClass : JarListings.classesOf(ROOT.resolve(module).resolve("target/classes"))) {
                assertThat(entries).as("class of %s", module).contains(ourClass);
            }
        }
    }

    @Test
    void hasNoFlinkNoPaimonAndNoUnrelocatedThirdPartyClass() {
        List<String> flinkOrPaimon = entries.stream()
                .filter(e -> e.startsWith("org/apache/flink/") || e.startsWith("org/apache/paimon/"))
                .collect(Collectors.toList());
        assertThat(flinkOrPaimon).as("Flink is provided by the cluster; Apache Paimon is never bundled").isEmpty();

        Map<String, Integer> unrelocated = new TreeMap<>();
        for (String entry : entries) {
            if (!entry.endsWith(".class")) {
                continue;
            }
            String name = entry.replaceFirst("^META-INF/versions/\\d+/", "");
            boolean allowed = name.startsWith(OURS) || KEPT_UNRELOCATED.stream().anyMatch(name::startsWith);
            if (!allowed) {
                unrelocated.merge(packageOf(name), 1, Integer::sum);
            }
        }
        assertThat(unrelocated).as("packages with unrelocated third-party classes (package -> classes)").isEmpty();

        assertThat(entries).as("provided by Flink's own jars").noneMatch(e -> e.startsWith("org/slf4j/"))
                .noneMatch(e -> e.startsWith("org/xerial/snappy/"));
        assertThat(entries).as("signatures and module descriptors of the merged jars")
                .noneMatch(e -> e.matches("META-INF/[^/]+\\.(SF|DSA|RSA|EC)"))
                .noneMatch(e -> e.endsWith("module-info.class"));
    }

    @Test
    void mergesServiceFilesAndEveryProviderExists() throws IOException {
        // Every provider our modules register (the catalog's Flink factories among them) is in the bundle.
        for (String module : MODULES) {
            Path services = ROOT.resolve(module).resolve("target/classes/META-INF/services");
            if (!Files.isDirectory(services)) {
                continue;
            }
            try (var files = Files.list(services)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    String entry = "META-INF/services/" + file.getFileName();
                    assertThat(entries).as("services file of %s", module).contains(entry);
                    assertThat(JarListings.providers(JarListings.read(bundle, entry))).as(entry).containsAll(JarListings.providers(Files.readString(file)));
                }
            }
        }
        // Services files were merged and rewritten with the relocations: each listed provider is a class here.
        List<String> serviceFiles = entries.stream()
                .filter(e -> e.startsWith("META-INF/services/") && !e.endsWith("/"))
                .collect(Collectors.toList());
        assertThat(serviceFiles).contains("META-INF/services/org.apache.hadoop.fs.FileSystem");
        for (String serviceFile : serviceFiles) {
            for (String provider : JarListings.providers(JarListings.read(bundle, serviceFile))) {
                assertThat(entries).as("provider listed in %s", serviceFile)
                        .contains(provider.replace('.', '/') + ".class");
            }
        }
        assertThat(serviceFiles).as("Hadoop must not become the StAX provider of everything in lib/")
                .noneMatch(e -> e.startsWith("META-INF/services/javax.xml.stream."));
    }

    /**
     * The storage quickstart (Parquet data files with zstd, Avro manifests, Jackson snapshots, Hadoop
     * configuration) in a JVM whose classpath is Flink's jars plus the bundle: no target/classes, no
     * unrelocated Parquet, Avro or Jackson. Relocation mistakes (a class name in a string, a services
     * file) fail here.
     */
    @Test
    void storageRunsFromTheBundleNextToFlinksJars() throws Exception {
        String flinkClasspath = Files.readString(ROOT.resolve("paimon-sql-runner/target/classpath-flink.txt")).trim();
        assertThat(flinkClasspath).doesNotContain("parquet", "avro", "jackson-databind", "paimon-");
        Path warehouse = tmp.resolve("warehouse");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessRun run = ProcessRun.run(
                List.of(java, "-cp", flinkClasspath + ":" + BUNDLE,
                        "dev.streamhouse.storage.examples.Quickstart", warehouse.toString()),
                tmp, tmp.resolve("quickstart.txt"), Duration.ofMinutes(2), (Map<String, String> env) -> { });

        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(run.output).contains(
                "Snapshot 2 of quickstart.orders",
                "  order_id=1 | customer=alice | amount=12.50 | dt=2026-11-29",
                "  order_id=4 | customer=NULL | amount=0.01 | dt=2026-11-30",
                "Rows of dt = 2026-11-30:\n  order_id=3 | customer=carol | amount=99.99 | dt=2026-11-30\n"
                        + "  order_id=4 | customer=NULL | amount=0.01 | dt=2026-11-30");
        try (var files = Files.walk(warehouse)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.endsWith(".parquet"))
                    .anyMatch(n -> n.startsWith("snapshot-"));
        }
    }

    /**
     * The storage quickstart on an {@code s3://} warehouse from the bundle next to Flink's jars: S3A, the
     * AWS SDK and the relocated HTTP clients work together. The store's settings come the way a cluster
     * gives them, through {@code HADOOP_CONF_DIR}'s {@code core-site.xml}.
     */
    @Test
    void s3WarehousesWorkFromTheBundle() throws Exception {
        String flinkClasspath = Files.readString(ROOT.resolve("paimon-sql-runner/target/classpath-flink.txt")).trim();
        Path conf = Files.createDirectories(tmp.resolve("hadoop-conf"));
        StringBuilder site = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        Map<String, String> settings = new TreeMap<>(Map.of(
                "fs.s3a.endpoint", S3.endpoint(),
                "fs.s3a.access.key", dev.streamhouse.fs.s3.S3ProxyExtension.ACCESS_KEY,
                "fs.s3a.secret.key", dev.streamhouse.fs.s3.S3ProxyExtension.SECRET_KEY,
                "fs.s3a.path.style.access", "true",
                "fs.s3a.endpoint.region", "us-east-1"));
        settings.forEach((k, v) -> site.append("  <property><name>").append(k).append("</name><value>").append(v)
                .append("</value></property>\n"));
        Files.writeString(conf.resolve("core-site.xml"), site.append("</configuration>\n").toString());
        String warehouse = S3.uri("bundle-warehouse");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessRun run = ProcessRun.run(
                List.of(java, "-cp", flinkClasspath + ":" + BUNDLE,
                        "dev.streamhouse.storage.examples.Quickstart", warehouse),
                tmp, tmp.resolve("quickstart-s3.txt"), Duration.ofMinutes(2),
                (Map<String, String> env) -> env.put("HADOOP_CONF_DIR", conf.toString()));

        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(run.output).contains("Snapshot 2 of quickstart.orders at " + warehouse,
                "  order_id=4 | customer=NULL | amount=0.01 | dt=2026-11-30");
    }

    /**
     * The storage quickstart on a catalog of a real Hive metastore from the bundle next to Flink's jars:
     * the relocated Hive client, thrift and Guava find their classes (the metastore's configuration names
     * classes in strings), and a commit takes the metastore's lock.
     */
    @Test
    void hiveMetastoreCatalogsWorkFromTheBundle() throws Exception {
        String flinkClasspath = Files.readString(ROOT.resolve("paimon-sql-runner/target/classpath-flink.txt")).trim();
        Path warehouse = tmp.resolve("hive-warehouse");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessRun run = ProcessRun.run(
                List.of(java, "-cp", flinkClasspath + ":" + BUNDLE, "dev.streamhouse.storage.examples.Quickstart",
                        warehouse.toString(), "metastore=hive", "uri=" + METASTORE.uri(), "lock.enabled=true"),
                tmp, tmp.resolve("quickstart-hive.txt"), Duration.ofMinutes(2), (Map<String, String> env) -> { });

        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(run.output).contains("Snapshot 2 of quickstart.orders",
                "  order_id=4 | customer=NULL | amount=0.01 | dt=2026-11-30");
        org.apache.hadoop.conf.Configuration conf = org.apache.hadoop.hive.metastore.conf.MetastoreConf.newMetastoreConf();
        org.apache.hadoop.hive.metastore.conf.MetastoreConf.setVar(conf,
                org.apache.hadoop.hive.metastore.conf.MetastoreConf.ConfVars.THRIFT_URIS, METASTORE.uri());
        try (var client = new org.apache.hadoop.hive.metastore.HiveMetaStoreClient(conf)) {
            assertThat(client.getTable("quickstart", "orders").getParameters()).containsEntry("table_type", "PAIMON");
        }
    }

    private static String packageOf(String classEntry) {
        int slash = classEntry.lastIndexOf('/');
        return slash < 0 ? "(default package)" : classEntry.substring(0, slash);
    }
}
