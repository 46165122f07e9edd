package dev.streamhouse.fs.s3;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.PutOptions2;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * An S3-compatible server (s3proxy over an in-memory blob store) on a free loopback port for the
 * tests of a class: {@code @RegisterExtension static S3ProxyExtension s3 = new S3ProxyExtension();}.
 *
 * <p>s3proxy checks {@code If-None-Match} and then writes, so two racing conditional PUTs can both
 * pass the check; the blob store here repeats the check and the write under one lock, making
 * conditional PUTs linearizable as on AWS S3. {@link #ignoringConditionalWrites()} makes a store that
 * accepts {@code If-None-Match} and ignores it, as some S3-compatible stores do.
 */
public final class S3ProxyExtension implements BeforeAllCallback, AfterAllCallback {
    public static final String ACCESS_KEY = "streamhouse-test-access";
    public static final String SECRET_KEY = "streamhouse-test-secret";

    private final boolean enforceConditionalWrites;
    private final String bucket = "bucket-" + UUID.randomUUID().toString().substring(0, 8);
    private S3Proxy proxy;
    private BlobStoreContext context;

    public S3ProxyExtension() {
        this(true);
    }

    private S3ProxyExtension(boolean enforceConditionalWrites) {
        this.enforceConditionalWrites = enforceConditionalWrites;
    }

    /** A store that accepts {@code If-None-Match: *} and overwrites anyway. */
    public static S3ProxyExtension ignoringConditionalWrites() {
        return new S3ProxyExtension(false);
    }

    @Override
    public void beforeAll(ExtensionContext extensionContext) throws Exception {
        context = ContextBuilder.newBuilder("transient").credentials("identity", "credential")
                .build(BlobStoreContext.class);
        BlobStore store = enforceConditionalWrites
                ? new LinearizableConditionalWrites(context.getBlobStore())
                : new IgnoredConditionalWrites(context.getBlobStore());
        store.createContainerInLocation(null, bucket);
        proxy = S3Proxy.builder()
                .blobStore(store)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .ignoreUnknownHeaders(true)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5);
        }
    }

    @Override
    public void afterAll(ExtensionContext extensionContext) throws Exception {
        if (proxy != null) {
            proxy.stop();
        }
        if (context != null) {
            context.close();
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + proxy.getPort();
    }

    public String bucket() {
        return bucket;
    }

    /** {@code s3://<bucket>/<path>}. */
    public String uri(String path) {
        return "s3://" + bucket + "/" + path;
    }

    /** Catalog options for a warehouse at {@code s3://<bucket>/<path>}, as a Paimon user writes them. */
    public Map<String, String> catalogOptions(String path) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("warehouse", uri(path));
        options.putAll(s3Options());
        return options;
    }

    /** The {@code s3.*} options that reach this server. */
    public Map<String, String> s3Options() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("s3.endpoint", endpoint());
        options.put("s3.access-key", ACCESS_KEY);
        options.put("s3.secret-key", SECRET_KEY);
        options.put("s3.path.style.access", "true");
        options.put("s3.endpoint.region", "us-east-1");
        return options;
    }

    /** Repeats s3proxy's check of {@code If-None-Match: *} together with the write, under one lock. */
    private static final class LinearizableConditionalWrites extends ForwardingBlobStore {
        LinearizableConditionalWrites(BlobStore delegate) {
            super(delegate);
        }

        @Override
        public String putBlob(String container, Blob blob, PutOptions options) {
            if (options instanceof PutOptions2 && ((PutOptions2) options).getIfNoneMatch() != null) {
                synchronized (this) {
                    if (delegate().blobExists(container, blob.getMetadata().getName())) {
                        // s3proxy answers this exception with 412 Precondition Failed.
                        throw new IllegalStateException("PreconditionFailed: " + blob.getMetadata().getName() + " exists");
                    }
                    return delegate().putBlob(container, blob, options);
                }
            }
            return delegate().putBlob(container, blob, options);
        }
    }

    /**
     * Makes s3proxy's own check of {@code If-None-Match} see no object (it looks the object up from
     * its PUT handler just before writing), so the PUT overwrites: a store that ignores the header.
     */
    private static final class IgnoredConditionalWrites extends ForwardingBlobStore {
        IgnoredConditionalWrites(BlobStore delegate) {
            super(delegate);
        }

        @Override
        public BlobMetadata blobMetadata(String container, String name) {
            boolean fromPutHandler = StackWalker.getInstance()
                    .walk(frames -> frames.anyMatch(f -> f.getMethodName().equals("handlePutBlob")));
            return fromPutHandler ? null : delegate().blobMetadata(container, name);
        }
    }
}
