// Games of branan against OpenTafl's own AI, run by OpenTafl's own game engine
// and its external-engine host, without OpenTafl's terminal UI: a test tool for
// scripts/opentafl-check.sh, compiled there against a local OpenTafl build and
// run from OpenTafl's folder (where its `engines/` folder is). Never part of
// branan.
//
// Usage: java OtepMatch <engine.ini> <variant name> <games> <ai seconds>
//            <main seconds> <overtime seconds> <overtimes> <analyze after plies>
//            <records folder>
// Games alternate sides: branan has the attackers in the odd games. Prints one
// line per game (`game N: branan=<side> result=<...> plies=<n> clock=<...>`),
// and every status line OpenTafl shows (branan's `status` and `analysis`
// lines arrive there).

import com.manywords.softworks.tafl.command.CommandEngine;
import com.manywords.softworks.tafl.command.CommandParser;
import com.manywords.softworks.tafl.command.CommandResult;
import com.manywords.softworks.tafl.command.player.ExternalEnginePlayer;
import com.manywords.softworks.tafl.command.player.LocalAi;
import com.manywords.softworks.tafl.command.player.Player;
import com.manywords.softworks.tafl.command.player.external.engine.EngineSpec;
import com.manywords.softworks.tafl.engine.Game;
import com.manywords.softworks.tafl.engine.GameState;
import com.manywords.softworks.tafl.engine.MoveRecord;
import com.manywords.softworks.tafl.engine.clock.GameClock;
import com.manywords.softworks.tafl.engine.clock.TimeSpec;
import com.manywords.softworks.tafl.notation.GameSerializer;
import com.manywords.softworks.tafl.rules.Coord;
import com.manywords.softworks.tafl.rules.Rules;
import com.manywords.softworks.tafl.rules.Side;
import com.manywords.softworks.tafl.rules.Variants;
import com.manywords.softworks.tafl.ui.UiCallback;
import com.manywords.softworks.tafl.ui.lanterna.settings.TerminalSettings;

import java.io.File;
import java.io.FileWriter;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

public class OtepMatch {
    static class Watcher implements UiCallback {
        final CountDownLatch done = new CountDownLatch(1);
        volatile String winner = "none";
        volatile int plies = 0;
        volatile CommandEngine engine;
        volatile boolean analyzed = false;
        int analyzeAfter;

        public void gameStarting() {}
        public void modeChanging(Mode mode, Object gameObject) {}
        public void awaitingMove(Player player, boolean isAttackingSide) {}
        public void timeUpdate(boolean currentSideAttackers) {}
        public void moveResult(CommandResult result, MoveRecord move) {
            if (move != null && result.result == CommandResult.SUCCESS) {
                plies++;
                System.out.println("  ply " + plies + ": " + move);
            } else if (result.result != CommandResult.SUCCESS) {
                System.out.println("  refused: " + move + " " + result.message);
            }
        }
        public void statusText(String text) { System.out.println("  status: " + text); }
        public void modalStatus(String title, String text) {
            System.out.println("  modal: " + title + ": " + text);
        }
        public void gameStateAdvanced() {
            // Ask the analysis engine once, as a player's `analyze` command does.
            if (!analyzed && analyzeAfter > 0 && plies >= analyzeAfter && engine != null) {
                analyzed = true;
                CommandEngine ce = engine;
                new Thread(() -> {
                    CommandResult r = ce.executeCommand(CommandParser.parseCommand(ce, "analyze 3 2"));
                    System.out.println("  analyze 3 2 -> " + (r.result == CommandResult.SUCCESS ? "sent" : r.message));
                }).start();
            }
        }
        public void victoryForSide(Side side) {
            winner = side == null ? "draw" : (side.isAttackingSide() ? "attackers" : "defenders");
        }
        public void gameFinished() { done.countDown(); }
        public MoveRecord waitForHumanMoveInput() { return null; }
        public boolean inGame() { return done.getCount() > 0; }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 9) {
            System.err.println("usage: OtepMatch <engine.ini> <variant> <games> <ai-seconds> "
                    + "<main-seconds> <overtime-seconds> <overtimes> <analyze-after-plies> <records-folder>");
            System.exit(2);
        }
        File ini = new File(args[0]);
        String variant = args[1];
        int games = Integer.parseInt(args[2]);
        int aiSeconds = Integer.parseInt(args[3]);
        long mainMs = Long.parseLong(args[4]) * 1000;
        long overtimeMs = Long.parseLong(args[5]) * 1000;
        int overtimes = Integer.parseInt(args[6]);
        int analyzeAfter = Integer.parseInt(args[7]);
        File records = new File(args[8]);
        records.mkdirs();

        Coord.initialize();
        Variants.loadExternalRules(new File("external-rules.conf"), new File("user-rules"));
        Rules rules = null;
        for (Rules r : Variants.availableRules) {
            if (r.getName().equalsIgnoreCase(variant)) rules = r;
        }
        if (rules == null) {
            System.err.println("no variant " + variant + "; OpenTafl has:");
            for (Rules r : Variants.availableRules) System.err.println("  " + r.getName());
            System.exit(2);
        }
        System.out.println("rules as OpenTafl sends them: " + rules.getOTRString(false));

        EngineSpec spec = new EngineSpec(ini);
        TerminalSettings.aiThinkTime = aiSeconds;
        if (analyzeAfter > 0) {
            TerminalSettings.analysisEngine = true;
            TerminalSettings.analysisEngineSpec = spec;
        }

        int branan = 0, ai = 0, draws = 0, unfinished = 0;
        for (int n = 1; n <= games; n++) {
            boolean brananAttacks = n % 2 == 1;
            Watcher w = new Watcher();
            w.analyzeAfter = analyzeAfter;
            // No main time and no overtime: a game without a clock, as OpenTafl's
            // UI starts one (no `clock` lines; branan uses its own move time).
            Game g = (mainMs == 0 && (overtimeMs == 0 || overtimes == 0))
                    ? new Game(rules, w)
                    : new Game(rules, w, new TimeSpec(mainMs, overtimeMs, overtimes, 0));
            ExternalEnginePlayer external = new ExternalEnginePlayer();
            external.setEngineSpec(spec);
            Player local = new LocalAi();
            Player attacker = brananAttacks ? external : local;
            Player defender = brananAttacks ? local : external;
            System.out.println("game " + n + " starts: branan=" + (brananAttacks ? "attackers" : "defenders"));
            CommandEngine ce = new CommandEngine(g, w, attacker, defender);
            w.engine = ce;
            ce.startGame();
            boolean finished = w.done.await(60, TimeUnit.MINUTES);
            GameClock clock = g.getClock();
            String left = clock == null ? "none" :
                    "attackers " + clock.getClockEntry(g.getCurrentState().getAttackers()).toString()
                    + ", defenders " + clock.getClockEntry(g.getCurrentState().getDefenders()).toString();
            String brananSide = brananAttacks ? "attackers" : "defenders";
            String result = finished ? w.winner : "unfinished";
            if (!finished) unfinished++;
            else if (w.winner.equals("draw")) draws++;
            else if (w.winner.equals(brananSide)) branan++;
            else ai++;
            System.out.println("game " + n + ": branan=" + brananSide + " result=" + result
                    + " plies=" + w.plies + " victory-code=" + g.getCurrentState().checkVictory()
                    + " clock-left=[" + left + "]");
            try (FileWriter fw = new FileWriter(new File(records, "game" + n + ".otg"))) {
                fw.write(GameSerializer.getGameRecord(g, true));
            } catch (IOException e) {
                System.out.println("could not write the record: " + e);
            }
            ce.shutdown();
            Thread.sleep(500);
        }
        System.out.println("summary: games=" + games + " branan-wins=" + branan + " opentafl-ai-wins=" + ai
                + " draws=" + draws + " unfinished=" + unfinished);
        System.exit(0);
    }
}
