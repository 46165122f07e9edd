package dev.streamhouse.e2e.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.procedure.Procedures;
import org.apache.paimon.factories.Factory;
import org.apache.paimon.flink.procedure.ProcedureBase;
import org.apache.paimon.flink.procedure.ProcedureUtil;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Our procedure names are Apache Paimon's: the procedures we have (without our own extensions, which
 * Paimon must not have) plus the ones we refuse by name are exactly those the oracle jar's Flink
 * connector registers, so no Paimon procedure falls through to
 * Calcite's "No match found", and upgrading the oracle shows what changed.
 */
class ProcedureNamesInteropTest {
    private static final String PAIMON_FACTORIES = "META-INF/services/" + Factory.class.getName();

    @Test
    void ourProceduresAndTheRefusedOnesAreExactlyPaimons() throws Exception {
        Set<String> paimon = paimonProcedureIdentifiers();
        // the service file is read as Paimon's own catalog lists its procedures
        assertThat(paimon).contains("compact", "create_tag").isEqualTo(new TreeSet<>(ProcedureUtil.listProcedures()));

        assertThat(Procedures.notSupportedYet()).isSorted().doesNotHaveDuplicates()
                .doesNotContainAnyElementsOf(Procedures.names());
        assertThat(Procedures.extensions()).isSorted().isSubsetOf(Procedures.names())
                .doesNotContainAnyElementsOf(paimon);
        Set<String> ours = new TreeSet<>(Procedures.names());
        ours.removeAll(Procedures.extensions());
        ours.addAll(Procedures.notSupportedYet());
        assertThat(ours).isEqualTo(paimon);
    }

    /** identifier() of every concrete Paimon procedure that a Paimon factory service file registers. */
    private static Set<String> paimonProcedureIdentifiers() throws Exception {
        ClassLoader loader = ProcedureBase.class.getClassLoader();
        Set<String> identifiers = new TreeSet<>();
        for (URL file : Collections.list(loader.getResources(PAIMON_FACTORIES))) {
            for (String className : providers(file)) {
                Class<?> type = Class.forName(className, false, loader);
                if (ProcedureBase.class.isAssignableFrom(type) && !Modifier.isAbstract(type.getModifiers())) {
                    ProcedureBase procedure = (ProcedureBase) type.getDeclaredConstructor().newInstance();
                    assertThat(identifiers.add(procedure.identifier())).as(className).isTrue();
                }
            }
        }
        return identifiers;
    }

    /** The class names a service file lists: one per line, {@code #} starting a comment. */
    private static Set<String> providers(URL file) throws IOException {
        Set<String> names = new TreeSet<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(file.openStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                int comment = line.indexOf('#');
                String name = (comment < 0 ? line : line.substring(0, comment)).trim();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
