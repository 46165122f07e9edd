package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.PaimonOracle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * One fresh warehouse per test, opened by both our store and Apache Paimon's catalog (the oracle),
 * with the test's database created.
 */
abstract class InteropTestBase {
    private final String database;

    @TempDir
    Path warehouse;

    OurStore ours;
    PaimonOracle paimon;

    InteropTestBase(String database) {
        this.database = database;
    }

    @BeforeEach
    void openStores() {
        ours = new OurStore(warehouse);
        paimon = new PaimonOracle(warehouse);
        ours.createDatabase(database);
    }

    @AfterEach
    void closeStores() throws Exception {
        paimon.close();
        ours.close();
    }
}
