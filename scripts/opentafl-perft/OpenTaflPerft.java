// Perft by OpenTafl's own rules engine: the number of move sequences of each
// length from a rules string's start, a finished game having no moves (as branan
// counts). A test tool built from OpenTafl's source by scripts/opentafl-perft.sh;
// never part of branan.
//
//   java OpenTaflPerft RULES DEPTH [divide]
//   java OpenTaflPerft RULES games COUNT SEED MAX_PLIES
//
// Prints `depth count` for each depth from 1 to DEPTH; with `divide`, each root
// move and its count at DEPTH first. With `games`, plays COUNT games of random
// legal moves (a seeded java.util.Random) and prints one line per game, tab
// separated: the rules, then each ply as `count:move:captures` (the number of
// legal moves before it, the move, the squares it captured, `/`-separated), then
// the legal moves of the last position and how the game stands: `attackers`,
// `defenders` or `draw` (OpenTafl's verdict), or `on` after MAX_PLIES.

import com.manywords.softworks.tafl.engine.Game;
import com.manywords.softworks.tafl.engine.GameState;
import com.manywords.softworks.tafl.engine.MoveRecord;
import com.manywords.softworks.tafl.notation.RulesSerializer;
import com.manywords.softworks.tafl.rules.Coord;
import com.manywords.softworks.tafl.rules.Rules;
import com.manywords.softworks.tafl.rules.Taflman;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class OpenTaflPerft {
    public static void main(String[] args) throws Exception {
        // OpenTafl builds its table of squares once, at start-up.
        Coord.initialize();
        Rules rules = RulesSerializer.loadRulesRecord(args[0]);
        if (args[1].equals("games")) {
            Random random = new Random(Long.parseLong(args[3]));
            for (int g = Integer.parseInt(args[2]); g > 0; g--) {
                System.out.println(args[0] + "\t" + randomGame(rules, random, Integer.parseInt(args[4])));
            }
            return;
        }
        int depth = Integer.parseInt(args[1]);
        Game game = new Game(rules, null);
        if (args.length > 2 && args[2].equals("divide")) {
            for (MoveRecord m : moves(game.getCurrentState())) {
                Game next = new Game(game);
                int result = next.getCurrentState().makeMove(m);
                long n = result == GameState.GOOD_MOVE ? perft(next, depth - 1) : 0;
                System.out.println(m + " " + n);
            }
        }
        for (int d = 1; d <= depth; d++) {
            System.out.println(d + " " + perft(game, d));
        }
    }

    static long perft(Game game, int depth) {
        if (depth == 0) {
            return 1;
        }
        List<MoveRecord> moves = moves(game.getCurrentState());
        if (depth == 1) {
            return moves.size();
        }
        long total = 0;
        for (MoveRecord m : moves) {
            Game next = new Game(game);
            int result = next.getCurrentState().makeMove(m);
            if (result == GameState.GOOD_MOVE) {
                total += perft(next, depth - 1);
            } else if (result < GameState.LOWEST_NONERROR_RESULT) {
                throw new IllegalStateException("OpenTafl refused its own move " + m + ": " + result);
            }
        }
        return total;
    }

    static String randomGame(Rules rules, Random random, int maxPlies) {
        Game game = new Game(rules, null);
        StringBuilder out = new StringBuilder();
        for (int ply = 0; ply < maxPlies; ply++) {
            GameState before = game.getCurrentState();
            List<MoveRecord> moves = moves(before);
            if (moves.isEmpty()) {
                break;
            }
            MoveRecord m = moves.get(random.nextInt(moves.size()));
            int result = before.makeMove(m);
            if (result < GameState.LOWEST_NONERROR_RESULT) {
                throw new IllegalStateException("OpenTafl refused its own move " + m + ": " + result);
            }
            GameState after = game.getCurrentState();
            List<String> taken = new ArrayList<>();
            int n = before.getBoard().getBoardDimension();
            for (int y = 0; y < n; y++) {
                for (int x = 0; x < n; x++) {
                    Coord c = Coord.get(x, y);
                    if (before.getPieceAt(x, y) != Taflman.EMPTY && after.getPieceAt(x, y) == Taflman.EMPTY
                            && !c.equals(m.start)) {
                        taken.add(c.toString());
                    }
                }
            }
            out.append(moves.size()).append(':').append(m.start).append('-').append(m.end)
                    .append(':').append(String.join("/", taken)).append(' ');
            if (result == GameState.ATTACKER_WIN) {
                return out + "\t0\tattackers";
            } else if (result == GameState.DEFENDER_WIN) {
                return out + "\t0\tdefenders";
            } else if (result == GameState.DRAW) {
                return out + "\t0\tdraw";
            }
        }
        return out + "\t" + moves(game.getCurrentState()).size() + "\ton";
    }

    static List<MoveRecord> moves(GameState state) {
        List<MoveRecord> moves = new ArrayList<>();
        for (char t : state.getCurrentSide().getTaflmen()) {
            Coord from = Taflman.getCurrentSpace(state, t);
            // A side's list may still name a piece taken since.
            if (from == null || state.getPieceAt(from.x, from.y) != t) {
                continue;
            }
            for (Coord to : Taflman.getAllowableDestinations(state, t)) {
                moves.add(new MoveRecord(from, to));
            }
        }
        return moves;
    }
}
