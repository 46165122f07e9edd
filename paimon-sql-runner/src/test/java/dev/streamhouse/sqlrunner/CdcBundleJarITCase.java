package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks paimon-flink-cdc's bundle jar, which runs next to paimon-flink-catalog's bundle
 * (docs/getting-started.md, "What the bundles hold"): it holds the cdc module, Debezium, Kafka
 * Connect and the JDBC drivers, no Flink, no Apache Paimon, none of our other modules and nothing the
 * catalog bundle has; Kafka and Jackson only under {@code dev.streamhouse.shaded}, also where class
 * names sit in strings; its relocated references resolve in one of the two bundles; services files
 * are merged and renamed. That the jar runs is {@link CdcActionClusterITCase}'s part.
 */
class CdcBundleJarITCase {
    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Path CATALOG_BUNDLE = Path.of(System.getProperty("streamhouse.bundle",
            "../paimon-flink-catalog/target/paimon-flink-catalog-0.1.0-SNAPSHOT-flink-1.20-bundle.jar")).toAbsolutePath().normalize();
    private static final Path CDC_BUNDLE = Path.of(System.getProperty("streamhouse.cdc.bundle",
            "../paimon-flink-cdc/target/paimon-flink-cdc-0.1.0-SNAPSHOT-flink-1.20-bundle.jar")).toAbsolutePath().normalize();

    private static final String SHADED = "dev/streamhouse/shaded/";
    /** Our modules the catalog bundle holds; the cdc bundle must not hold them a second time. */
    private static final List<String> CATALOG_MODULES = List.of(
            "paimon-storage", "paimon-flink-common", "paimon-flink-sink", "paimon-flink-source", "paimon-flink-catalog");
    /** A class name in a string constant: what Kafka Connect and Debezium instantiate by name. */
    private static final Pattern CLASS_NAME_STRING = Pattern.compile("(org\\.apache\\.kafka|com\\.fasterxml\\.jackson)(\\.[\\w$]+)+");
    /**
     * Kafka Connect's REST server: its web stack (Jetty, Jersey, Jackson's JAX-RS provider) is left out
     * of the module's dependencies, as the embedded engine never starts it.
     */
    private static final String KAFKA_CONNECT_REST = SHADED + "org/apache/kafka/connect/runtime/rest/";
    private static final Pattern SHADED_REFERENCE = Pattern.compile("dev/streamhouse/shaded/[\\w/$]+");

    private static ZipFile bundle;
    private static Set<String> entries;
    private static Set<String> catalogEntries;

    @BeforeAll
    static void openBundles() throws IOException {
        assertThat(CDC_BUNDLE).as("the cdc bundle jar (built by `mvn package` in paimon-flink-cdc)").isRegularFile();
        assertThat(CATALOG_BUNDLE).as("the catalog bundle jar (built by `mvn package` in paimon-flink-catalog)")
                .isRegularFile();
        bundle = new ZipFile(CDC_BUNDLE.toFile());
        entries = bundle.stream().map(ZipEntry::getName).collect(Collectors.toCollection(TreeSet::new));
        try (ZipFile catalog = new ZipFile(CATALOG_BUNDLE.toFile())) {
            catalogEntries = catalog.stream().map(ZipEntry::getName).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @AfterAll
    static void closeBundle() throws IOException {
        if (bundle != null) {
            bundle.close();
        }
    }

    @Test
    void holdsTheCdcModuleDebeziumKafkaConnectAndTheDrivers() throws IOException {
        List<String> ours = JarListings.classesOf(ROOT.resolve("paimon-flink-cdc/target/classes"));
        assertThat(ours).contains("dev/streamhouse/flink/cdc/action/CdcActionMain.class");
        assertThat(entries).containsAll(ours);
        assertThat(entries).contains(
                "io/debezium/embedded/async/AsyncEmbeddedEngine.class",
                "io/debezium/connector/mariadb/MariaDbConnector.class",
                "io/debezium/connector/mysql/MySqlConnector.class",
                "io/debezium/ddl/parser/mysql/generated/MySqlParser.class",
                "com/github/shyiko/mysql/binlog/BinaryLogClient.class",
                "org/mariadb/jdbc/Driver.class",
                "com/mysql/cj/jdbc/Driver.class",
                "org/antlr/v4/runtime/Parser.class",
                SHADED + "org/apache/kafka/connect/source/SourceRecord.class",
                SHADED + "org/apache/kafka/connect/runtime/WorkerConfig.class",
                SHADED + "org/apache/kafka/connect/json/JsonConverter.class",
                SHADED + "org/apache/kafka/clients/producer/ProducerConfig.class",
                SHADED + "com/fasterxml/jackson/datatype/jsr310/JavaTimeModule.class");
        try (JarFile jar = new JarFile(CDC_BUNDLE.toFile())) {
            Manifest manifest = jar.getManifest();
            assertThat(manifest.getMainAttributes().getValue("Main-Class"))
                    .as("`flink run <bundle>` needs no -c").isEqualTo("dev.streamhouse.flink.cdc.action.CdcActionMain");
        }
    }

    @Test
    void hasNoFlinkNoPaimonNoOtherModuleAndNothingOfTheCatalogBundle() throws IOException {
        assertThat(entries).as("Flink is provided by the cluster; Apache Paimon is never bundled")
                .noneMatch(e -> e.startsWith("org/apache/flink/") || e.startsWith("org/apache/paimon/"))
                .as("logging and snappy come with Flink").noneMatch(e -> e.startsWith("org/slf4j/"))
                .noneMatch(e -> e.startsWith("org/xerial/snappy/"));
        for (String module : CATALOG_MODULES) {
            List<String> classes = JarListings.classesOf(ROOT.resolve(module).resolve("target/classes"));
            assertThat(classes).as("classes of %s", module).isNotEmpty();
            assertThat(entries).as("classes of %s (in the catalog bundle)", module).doesNotContainAnyElementsOf(classes);
        }
        List<String> twice = entries.stream().filter(e -> e.endsWith(".class")).filter(catalogEntries::contains)
                .collect(Collectors.toList());
        assertThat(twice).as("classes in both bundles (they share a class loader in lib/)").isEmpty();
    }

    @Test
    void kafkaAndJacksonAreOnlyRelocatedAlsoInStrings() throws IOException {
        assertThat(entries).as("Kafka and Jackson classes outside dev/streamhouse/shaded")
                .noneMatch(e -> e.startsWith("org/apache/kafka/") || e.startsWith("com/fasterxml/jackson/"));
        // Kafka Connect creates converters, offset stores and connectors from class names in configs and
        // defaults; the relocation must have rewritten those names with the classes.
        Map<String, List<String>> unrelocatedNames = new TreeMap<>();
        for (String entry : entries) {
            if (!entry.endsWith(".class")) {
                continue;
            }
            for (String string : constants(entry).strings) {
                Matcher m = CLASS_NAME_STRING.matcher(string);
                if (m.matches()) {
                    unrelocatedNames.computeIfAbsent(entry, k -> new ArrayList<>()).add(string);
                }
            }
        }
        assertThat(unrelocatedNames).as("unrelocated Kafka/Jackson class names in string constants").isEmpty();
    }

    @Test
    void everyRelocatedReferenceResolvesInOneOfTheTwoBundles() throws IOException {
        // Relocated references are to Kafka and Jackson here, or to the catalog bundle's relocated
        // libraries (Jackson core, Commons, ...), which the cdc bundle uses instead of its own copies.
        Map<String, Set<String>> missing = new TreeMap<>();
        for (String entry : entries) {
            if (!entry.endsWith(".class") || entry.startsWith(KAFKA_CONNECT_REST)) {
                continue;
            }
            for (String referenced : constants(entry).shadedClasses) {
                String file = referenced + ".class";
                if (!entries.contains(file) && !catalogEntries.contains(file)) {
                    missing.computeIfAbsent(referenced, k -> new TreeSet<>()).add(entry);
                }
            }
        }
        assertThat(missing).as("relocated classes referenced but in neither bundle (class -> referenced by)").isEmpty();
    }

    @Test
    void mergesAndRenamesServicesFiles() throws IOException {
        Set<String> services = entries.stream().filter(e -> e.startsWith("META-INF/services/") && !e.endsWith("/"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(services).contains(
                "META-INF/services/org.apache.flink.table.factories.Factory",
                "META-INF/services/io.debezium.engine.DebeziumEngine$BuilderFactory",
                "META-INF/services/java.sql.Driver",
                "META-INF/services/dev.streamhouse.shaded.org.apache.kafka.connect.source.SourceConnector",
                "META-INF/services/dev.streamhouse.shaded.org.apache.kafka.connect.storage.Converter");
        assertThat(services).as("Kafka's and Jackson's service interfaces are relocated")
                .noneMatch(s -> s.startsWith("META-INF/services/org.apache.kafka."))
                .noneMatch(s -> s.startsWith("META-INF/services/com.fasterxml.jackson."));
        assertThat(JarListings.providers(JarListings.read(bundle, "META-INF/services/org.apache.flink.table.factories.Factory"))).containsExactlyInAnyOrder(
                "dev.streamhouse.flink.cdc.table.MySqlCdcTableFactory", "dev.streamhouse.flink.cdc.catalog.MySqlCatalogFactory",
                "dev.streamhouse.flink.cdc.catalog.KafkaCatalogFactory");
        assertThat(JarListings.providers(JarListings.read(bundle, "META-INF/services/java.sql.Driver")))
                .contains("org.mariadb.jdbc.Driver", "com.mysql.cj.jdbc.Driver");
        assertThat(JarListings.providers(JarListings.read(bundle, "META-INF/services/dev.streamhouse.shaded.org.apache.kafka.connect.source.SourceConnector")))
                .contains("io.debezium.connector.mariadb.MariaDbConnector", "io.debezium.connector.mysql.MySqlConnector");
        for (String file : services) {
            for (String provider : JarListings.providers(JarListings.read(bundle, file))) {
                assertThat(entries).as("provider listed in %s", file).contains(provider.replace('.', '/') + ".class");
            }
        }
        assertThat(entries).as("signatures, module descriptors and multi-release variants of the merged jars")
                .noneMatch(e -> e.matches("META-INF/[^/]+\\.(SF|DSA|RSA|EC)"))
                .noneMatch(e -> e.endsWith("module-info.class"))
                .noneMatch(e -> e.startsWith("META-INF/versions/"));
    }

    /** The string constants and the relocated classes a class file names (class entries and descriptors). */
    private record Constants(List<String> strings, Set<String> shadedClasses) {}

    private static Constants constants(String classEntry) throws IOException {
        try (DataInputStream in = new DataInputStream(bundle.getInputStream(bundle.getEntry(classEntry)))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IOException(classEntry + " is not a class file");
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> stringIndexes = new ArrayList<>();
            Set<Integer> stringUtf8 = new java.util.HashSet<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                    case 5, 6 -> {
                        in.skipNBytes(8);
                        i++;
                    }
                    case 7, 16, 19, 20 -> in.skipNBytes(2);
                    case 8 -> stringIndexes.add(in.readUnsignedShort());
                    case 15 -> in.skipNBytes(3);
                    default -> throw new IOException("Unknown constant pool tag " + tag + " in " + classEntry);
                }
            }
            List<String> strings = stringIndexes.stream().map(i -> utf8[i]).collect(Collectors.toList());
            stringUtf8.addAll(stringIndexes);
            Set<String> shaded = new TreeSet<>();
            for (int i = 1; i < count; i++) {
                if (utf8[i] != null && !stringUtf8.contains(i)) {
                    Matcher m = SHADED_REFERENCE.matcher(utf8[i]);
                    while (m.find()) {
                        shaded.add(m.group());
                    }
                }
            }
            return new Constants(strings, shaded);
        }
    }
}
