package dev.streamhouse.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

import org.junit.jupiter.api.Test;

/** Parsing and composing locations; the path part is kept verbatim. */
class PathTest {

    @Test
    void objectStoreLocationHasSchemeAuthorityAndPath() {
        Path p = new Path("s3://my-bucket/warehouse/db.db/t");

        assertThat(p.scheme()).isEqualTo("s3");
        assertThat(p.authority()).isEqualTo("my-bucket");
        assertThat(p.path()).isEqualTo("/warehouse/db.db/t");
        assertThat(p.name()).isEqualTo("t");
        assertThat(p.toString()).isEqualTo("s3://my-bucket/warehouse/db.db/t");
    }

    @Test
    void authorityMayHaveAPort() {
        Path p = new Path("hdfs://namenode:8020/wh");

        assertThat(p.scheme()).isEqualTo("hdfs");
        assertThat(p.authority()).isEqualTo("namenode:8020");
        assertThat(p.path()).isEqualTo("/wh");
    }

    @Test
    void bareAuthorityHasTheRootPath() {
        Path p = new Path("s3://bucket");

        assertThat(p.path()).isEqualTo("/");
        assertThat(p.parent()).isNull();
        assertThat(new Path(p, "t").toString()).isEqualTo("s3://bucket/t");
    }

    @Test
    void fileUriWithEmptyAuthority() {
        Path p = new Path("file:///tmp/wh");

        assertThat(p.scheme()).isEqualTo("file");
        assertThat(p.path()).isEqualTo("/tmp/wh");
        assertThat(p.toString()).isEqualTo("file:///tmp/wh");
        assertThat(new Path(p.toString())).isEqualTo(p);
        assertThat(new Path(p, "t").toString()).isEqualTo("file:///tmp/wh/t");
        assertThat(p.parent().toString()).isEqualTo("file:///tmp");
    }

    @Test
    void fileUriWithoutAuthority() {
        Path p = new Path("file:/tmp/wh");

        assertThat(p.scheme()).isEqualTo("file");
        assertThat(p.authority()).isNull();
        assertThat(p.path()).isEqualTo("/tmp/wh");
        assertThat(p.toString()).isEqualTo("file:/tmp/wh");
    }

    @Test
    void plainAbsolutePathHasNoScheme() {
        Path p = new Path("/tmp/wh/db.db");

        assertThat(p.scheme()).isNull();
        assertThat(p.authority()).isNull();
        assertThat(p.path()).isEqualTo("/tmp/wh/db.db");
        assertThat(p.toString()).isEqualTo("/tmp/wh/db.db");
    }

    @Test
    void relativePaths() {
        Path p = new Path("a/b");

        assertThat(p.scheme()).isNull();
        assertThat(p.parent()).isEqualTo(new Path("a"));
        assertThat(new Path("a").parent()).isNull();
        assertThat(new Path(p, "c").toString()).isEqualTo("a/b/c");
    }

    @Test
    void percentEscapesAreKeptVerbatim() {
        Path table = new Path("s3://bucket/wh/db.db/t");
        Path partition = new Path(table, "dt=2024%2F01%2F01/hr=10%3A00");

        assertThat(partition.path()).isEqualTo("/wh/db.db/t/dt=2024%2F01%2F01/hr=10%3A00");
        assertThat(partition.toString()).isEqualTo("s3://bucket/wh/db.db/t/dt=2024%2F01%2F01/hr=10%3A00");
        assertThat(partition.name()).isEqualTo("hr=10%3A00");
        assertThat(partition.parent().name()).isEqualTo("dt=2024%2F01%2F01");
        assertThat(new Path(partition.toString())).isEqualTo(partition);
        assertThat(new Path("/wh/a%2Fb%20c").name()).isEqualTo("a%2Fb%20c");
    }

    @Test
    void childrenWithColonsAreNotParsedAsSchemes() {
        Path p = new Path(new Path("/wh"), "dt=2024-01-01 10:00");

        assertThat(p.scheme()).isNull();
        assertThat(p.name()).isEqualTo("dt=2024-01-01 10:00");
    }

    @Test
    void parentAndNameWalkUpToTheRoot() {
        Path p = new Path("/a/b/c");

        assertThat(p.name()).isEqualTo("c");
        assertThat(p.parent()).isEqualTo(new Path("/a/b"));
        assertThat(p.parent().parent()).isEqualTo(new Path("/a"));
        assertThat(p.parent().parent().parent()).isEqualTo(new Path("/"));
        assertThat(new Path("/").parent()).isNull();
        assertThat(new Path("/").name()).isEmpty();
        assertThat(new Path("s3://b/x").parent()).isEqualTo(new Path("s3://b/"));
    }

    @Test
    void childJoinsWithExactlyOneSlash() {
        Path dir = new Path("/wh/");

        assertThat(dir.path()).isEqualTo("/wh");
        assertThat(new Path(dir, "t").path()).isEqualTo("/wh/t");
        assertThat(new Path(dir, "/t").path()).isEqualTo("/wh/t");
        assertThat(new Path(new Path("/"), "t").path()).isEqualTo("/t");
        assertThat(new Path(dir, "a=1/b=2").path()).isEqualTo("/wh/a=1/b=2");
        assertThat(new Path(dir, "a=1/b=2").parent()).isEqualTo(new Path("/wh/a=1"));
    }

    @Test
    void childKeepsSchemeAndAuthority() {
        Path child = new Path(new Path("oss://bucket/wh"), "t");

        assertThat(child.scheme()).isEqualTo("oss");
        assertThat(child.authority()).isEqualTo("bucket");
        assertThat(child).isEqualTo(new Path("oss://bucket/wh/t"));
    }

    @Test
    void trailingSlashesDoNotMatter() {
        assertThat(new Path("/a/b/")).isEqualTo(new Path("/a/b"));
        assertThat(new Path("s3://bucket/a//")).isEqualTo(new Path("s3://bucket/a"));
        assertThat(new Path("/a/b/").hashCode()).isEqualTo(new Path("/a/b").hashCode());
    }

    @Test
    void schemeAndAuthorityTakePartInEquality() {
        assertThat(new Path("s3://a/x")).isNotEqualTo(new Path("s3://b/x"));
        assertThat(new Path("s3://a/x")).isNotEqualTo(new Path("oss://a/x"));
        assertThat(new Path("s3://a/x")).isNotEqualTo(new Path("/x"));
    }

    @Test
    void emptyOrNullLocationsAreRejected() {
        assertThatThrownBy(() -> new Path("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Path((String) null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void orderingFollowsTheTextualForm() {
        assertThat(new Path("/wh/snapshot-1")).isLessThan(new Path("/wh/snapshot-2"));
        assertThat(new Path("/a")).isLessThan(new Path("/b"));
    }

    @Test
    void pathsSurviveJavaSerialization() throws Exception {
        Path p = new Path("s3://bucket/wh/dt=a%2Fb");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(p);
        }
    }
}
