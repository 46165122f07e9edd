package dev.streamhouse.storage.fs.hadoop;

import dev.streamhouse.storage.options.Options;

import org.apache.hadoop.conf.Configuration;

import java.io.File;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The Hadoop settings a warehouse's file system is opened with, gathered once where the catalog is
 * opened and shipped with the file IO to every task (so tasks need no Hadoop configuration of their
 * own): the {@code core-site.xml} and {@code hdfs-site.xml} of {@code hadoop-conf-dir} (or of
 * {@code HADOOP_CONF_DIR}, or {@code HADOOP_HOME/etc/hadoop}), then the catalog's {@code hadoop.<key>}
 * options (as {@code <key>}) and {@code fs.*} options, later ones winning. Values may be credentials:
 * {@link #toString} shows only the keys.
 */
public final class HadoopSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String HADOOP_CONF_DIR_OPTION = "hadoop-conf-dir";
    private static final String HADOOP_PREFIX = "hadoop.";
    private static final String FS_PREFIX = "fs.";

    private final TreeMap<String, String> entries;

    private HadoopSettings(Map<String, String> entries) {
        this.entries = new TreeMap<>(entries);
    }

    public static HadoopSettings of(Map<String, String> entries) {
        return new HadoopSettings(entries);
    }

    /** The settings for a catalog's (or a path table's) options, reading the environment for the conf dir. */
    public static HadoopSettings fromOptions(Options options) {
        return fromOptions(options, System::getenv);
    }

    static HadoopSettings fromOptions(Options options, Function<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        File confDir = confDir(options.toMap().get(HADOOP_CONF_DIR_OPTION), env);
        if (confDir != null) {
            readSiteFiles(confDir, out);
        }
        for (Map.Entry<String, String> e : options.toMap().entrySet()) {
            String key = e.getKey();
            if (key.startsWith(HADOOP_PREFIX) && key.length() > HADOOP_PREFIX.length()) {
                out.put(key.substring(HADOOP_PREFIX.length()), e.getValue());
            }
        }
        for (Map.Entry<String, String> e : options.toMap().entrySet()) {
            if (e.getKey().startsWith(FS_PREFIX)) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return new HadoopSettings(out);
    }

    private static File confDir(String option, Function<String, String> env) {
        if (option != null && !option.isBlank()) {
            File dir = new File(option.trim());
            if (!dir.isDirectory()) {
                throw new IllegalArgumentException("Option '" + HADOOP_CONF_DIR_OPTION + "' = '" + option
                        + "' is not a directory; set it to the directory that holds core-site.xml");
            }
            return dir;
        }
        String fromEnv = env.apply("HADOOP_CONF_DIR");
        if (fromEnv != null && new File(fromEnv).isDirectory()) {
            return new File(fromEnv);
        }
        String home = env.apply("HADOOP_HOME");
        if (home != null && new File(home, "etc/hadoop").isDirectory()) {
            return new File(home, "etc/hadoop");
        }
        return null;
    }

    private static void readSiteFiles(File dir, Map<String, String> out) {
        for (String name : new String[] {"core-site.xml", "hdfs-site.xml"}) {
            File file = new File(dir, name);
            if (file.isFile()) {
                Configuration site = new Configuration(false);
                site.addResource(new org.apache.hadoop.fs.Path(file.toURI()));
                for (Map.Entry<String, String> e : site) {
                    out.put(e.getKey(), e.getValue());
                }
            }
        }
    }

    /** These settings plus {@code more} (which win). */
    public HadoopSettings with(Map<String, String> more) {
        TreeMap<String, String> merged = new TreeMap<>(entries);
        merged.putAll(more);
        return new HadoopSettings(merged);
    }

    public String get(String key) {
        return entries.get(key);
    }

    public Map<String, String> entries() {
        return java.util.Collections.unmodifiableMap(entries);
    }

    /** Hadoop's defaults ({@code core-default.xml}) with these settings applied. */
    public Configuration toConfiguration() {
        Configuration conf = new Configuration();
        entries.forEach(conf::set);
        return conf;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HadoopSettings && ((HadoopSettings) o).entries.equals(entries);
    }

    @Override
    public int hashCode() {
        return Objects.hash(entries);
    }

    @Override
    public String toString() {
        return "HadoopSettings" + entries.keySet();
    }
}
