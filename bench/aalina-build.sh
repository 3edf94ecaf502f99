#!/usr/bin/env bash
# Builds the Aalina oware engine (Joan Sala Soler's, the engine of the Aualé GUI) offline, for
# bench/versus.py: from git clones of github.com/joansalasoler/oware and
# github.com/joansalasoler/samurai, with javac and Debian's jars instead of Maven. Usage:
#
#   bench/aalina-build.sh OWARE_GIT SAMURAI_GIT OUT
#
# OWARE_GIT and SAMURAI_GIT are the two repositories (bare or not; their HEAD is built). OUT gets
# oware.jar, the opening and endgame books and oware.properties beside it (the engine looks for
# them in the jar's directory), and OUT/oware-engine, which starts its UCI service (`oware
# service`). Needs Java 17 (javac, jar) and, as root:
#
#   apt-get install libguice-java libpicocli-java libjline3-java libdb-je-java
#
# Debian 12's jars are older than the versions its pom.xml names, and it builds unchanged
# against them: Guice 4.2.3 for 7 (the no-AOP jar, with javax.inject), picocli 4.6.2 for 4.7.6,
# JLine 3.3.1 for 3.19, Berkeley DB JE 3.3.98 for 3.2.76.
#
# One change to its sources, so that its nodes can be counted over UCI: its UCI service prints
# no nodes, so the patch below counts the calls of Negamax.search (one per move made in the
# tree, as its own `oware test bench` counts them) and adds `nodes N time MS` to its info lines.
# The count is a field incremented once a node, as awari's own.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
oware=$1 samurai=$2 out=$3
J=/usr/share/java
cp_jars="$J/guice-no-aop.jar $J/atinject-jsr330-api.jar $J/aopalliance.jar $J/guava.jar $J/picocli.jar $J/jline3.jar $J/db-je.jar"
for jar in $cp_jars; do
    [ -e "$jar" ] || { echo "aalina-build.sh: $jar is missing: apt-get install libguice-java libpicocli-java libjline3-java libdb-je-java" >&2; exit 1; }
done
command -v javac >/dev/null || { echo "aalina-build.sh: javac is missing (openjdk-17-jdk-headless)" >&2; exit 1; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
mkdir "$src/oware" "$src/samurai"
# Only src/: the oware repository's pgo/ profile (for GraalVM builds) is not needed.
git -C "$oware" archive HEAD src | tar -x -C "$src/oware"
git -C "$samurai" archive HEAD src | tar -x -C "$src/samurai"
echo "oware $(git -C "$oware" rev-parse --short HEAD), samurai $(git -C "$samurai" rev-parse --short HEAD)"

patch -d "$src/samurai" -p1 <<'EOF'
--- a/src/main/java/com/joansala/engine/negamax/Negamax.java
+++ b/src/main/java/com/joansala/engine/negamax/Negamax.java
@@ -62,6 +62,15 @@ public class Negamax extends BaseEngine implements HasLeaves, HasCache {
     /** Depth of the last completed search */
     protected int scoreDepth = 0;
 
+    /** Calls to search (one per move made) since the last computeBestMove began */
+    protected long nodes = 0L;
+
+
+    /** Nodes searched by the last or the current computation */
+    public long getNodes() {
+        return nodes;
+    }
+
 
     /**
      * Initializes a new {@code Negamax} object.
@@ -213,6 +222,7 @@ public class Negamax extends BaseEngine implements HasLeaves, HasCache {
 
         // Get ready for the move computation
 
+        nodes = 0L;
         scheduleCountDown(moveTime);
         game.ensureCapacity(MAX_DEPTH + game.length());
         cache.discharge();
@@ -318,6 +328,8 @@ public class Negamax extends BaseEngine implements HasLeaves, HasCache {
      * @param depth     Depth limit
      */
     protected int search(Game game, int alpha, int beta, int depth) {
+        nodes++;
+
         if (aborted() && depth > MIN_DEPTH) {
             return minScore;
         }
--- a/src/main/java/com/joansala/uci/UCIBrain.java
+++ b/src/main/java/com/joansala/uci/UCIBrain.java
@@ -369,6 +369,14 @@ public class UCIBrain extends Thread {
             message.add(UPPERBOUND);
         }
 
+        if (engine instanceof com.joansala.engine.negamax.Negamax) {
+            long nodes = ((com.joansala.engine.negamax.Negamax) engine).getNodes();
+            message.add("nodes");
+            message.add(String.valueOf(nodes));
+            message.add("time");
+            message.add(String.valueOf(getSearchTime()));
+        }
+
         if (variation.length > 0) {
             message.add(VARIATION);
             message.add(parser.toNotation(variation));
EOF

mkdir "$src/classes"
find "$src/samurai/src/main/java" "$src/oware/src/main/java" -name '*.java' > "$src/sources"
javac -nowarn -encoding UTF-8 --release 17 -cp "$(echo $cp_jars | tr ' ' :)" -d "$src/classes" \
    @"$src/sources" > "$src/javac.log" 2>&1 || { cat "$src/javac.log" >&2; exit 1; }
res=$src/oware/src/main/resources
cp -r "$res/META-INF" "$src/classes/"
printf 'Main-Class: com.joansala.game.oware.OwareModule\nClass-Path: %s\n' \
    "$(for jar in $cp_jars; do printf 'file:%s ' "$jar"; done)" > "$src/manifest"
jar cfm "$out/oware.jar" "$src/manifest" -C "$src/classes" .
cp "$res/oware-roots.bin" "$res/oware-leaves.bin" "$out/"
# The properties Maven would filter: the engine's name, version and author.
sed -e 's/\${project.name}/Samurai Oware/' -e 's/\${project.version}/2.1.0-SNAPSHOT/' \
    -e 's/\${project.organization.name}/Joan Sala Soler/' "$res/oware.properties" > "$out/oware.properties"
cat > "$out/oware-engine" <<'EOF'
#!/bin/sh
# The Aalina oware engine's UCI service (bench/aalina-build.sh built it).
exec java ${AALINA_JAVA_OPTS:-} -jar "$(dirname "$(readlink -f "$0")")/oware.jar" service "$@"
EOF
chmod +x "$out/oware-engine"
echo "built $out/oware-engine"
