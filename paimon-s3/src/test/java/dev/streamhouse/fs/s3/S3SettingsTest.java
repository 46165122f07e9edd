package dev.streamhouse.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/** Paimon users' spellings of S3 settings all become S3A's keys. */
class S3SettingsTest {
    @Test
    void prefixesAndDashedSpellingsMapToS3aKeys() {
        Map<String, String> options = new TreeMap<>();
        options.put("s3.endpoint", "http://e");
        options.put("s3.access-key", "ak");
        options.put("s3a.secret-key", "sk");
        options.put("s3.path-style-access", "true");
        options.put("s3.endpoint.region", "eu-west-1");
        options.put("bucket", "4");
        assertThat(S3Settings.s3aEntries(options))
                .containsEntry("fs.s3a.endpoint", "http://e")
                .containsEntry("fs.s3a.access.key", "ak")
                .containsEntry("fs.s3a.secret.key", "sk")
                .containsEntry("fs.s3a.path.style.access", "true")
                .containsEntry("fs.s3a.endpoint.region", "eu-west-1")
                .doesNotContainKey("fs.s3a.bucket");
    }

    @Test
    void theHadoopSpellingWinsOverTheShortOnes() {
        Map<String, String> options = new TreeMap<>();
        options.put("s3.endpoint", "http://short");
        options.put("s3a.endpoint", "http://s3a");
        options.put("fs.s3a.endpoint", "http://hadoop");
        assertThat(S3Settings.s3aEntries(options)).containsEntry("fs.s3a.endpoint", "http://hadoop");
    }
}
