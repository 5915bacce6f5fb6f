//! Connect Four behind the game boundary: the game, its moves, the
//! network encoding and the alpha-beta baseline's evaluation.

use crate::position::{column_char, parse_column, Position};
use crate::variant::{Column, Connect4};
use game::GameError;
use game::{
    AlphaBetaState, Color, Encoding, GameResult, GameState, MoveOrder, Outcome, Termination,
};

/// Version of the encoding below (planes and move features).
pub const ENCODING_VERSION: u32 = 1;
/// Own stones, opponent stones, landing cells, first player to move.
pub const PLANES: usize = 4;
/// Wins now, blocks an opponent's win, lets the opponent win on top,
/// landing row / height.
pub const MOVE_FEATURES: usize = 4;

impl game::Game for Connect4 {
    type State = Position;
    type Move = Column;
    const NAME: &'static str = "connect4";

    fn variant(&self) -> &str {
        &self.variant
    }
    fn start(&self) -> Position {
        Position::empty(self.size)
    }
    fn parse_state(&self, text: &str) -> Result<Position, GameError> {
        Position::from_sequence(self.size, text)
    }
    fn symmetries(&self) -> usize {
        2
    }
    /// A move's code is its column: the codes are `0..width`.
    fn action_codes(&self) -> u64 {
        self.size.width as u64
    }

    /// A move string, one column character per move (`4453…`): the first
    /// word of the line, as in Pons's `.moves` files, whose other words
    /// (the position's score and per-column values) are not the game's.
    fn replay_line(
        &self,
        start: Position,
        line: &str,
    ) -> Result<game::RecordReplay<Position>, GameError> {
        let word = line.split_whitespace().next().unwrap_or("");
        game::replay_moves(
            start,
            word.char_indices().map(|(i, c)| &word[i..i + c.len_utf8()]),
        )
    }

    /// Pons's six files in `dir` (`crate::pons`).
    fn read_suite(
        &self,
        dir: &std::path::Path,
    ) -> Result<Vec<game::SuiteFile<Position>>, GameError> {
        crate::pons::read_suite(self, dir)
    }
}

impl GameState for Position {
    type Move = Column;

    #[inline]
    fn side(&self) -> Color {
        if self.first_to_move() {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Column>) {
        out.clear();
        if self.won {
            return;
        }
        for c in 0..self.size.width {
            if self.column_open(c) {
                out.push(Column(c));
            }
        }
    }

    #[inline]
    fn has_legal_move(&self) -> bool {
        !self.won && self.mask != self.board
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        if self.won {
            0
        } else {
            self.possible().count_ones() as u64
        }
    }

    #[inline]
    fn is_legal(&self, m: Column) -> bool {
        !self.won && self.column_open(m.0)
    }

    #[inline]
    fn apply(&mut self, m: Column) {
        self.drop_stone(m.0);
    }

    #[inline]
    fn hash(&self) -> u64 {
        // SplitMix64's finaliser of the unique key.
        let mut z = self.key().wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn reversible_plies(&self) -> u32 {
        0
    }

    #[inline]
    fn terminal(&self, has_legal_move: bool, _repetitions: u32) -> Option<Outcome> {
        if self.won {
            // The side that just moved completed a line.
            return Some(Outcome {
                result: GameResult::win_for(!self.side()),
                termination: Termination::Line,
            });
        }
        (!has_legal_move).then_some(Outcome {
            result: GameResult::Draw,
            termination: Termination::BoardFull,
        })
    }

    #[inline]
    fn is_winning_move(&self, m: Column) -> bool {
        self.wins_with(m.0)
    }

    fn to_text(&self) -> String {
        self.sequence_text()
    }

    fn diagram(&self) -> String {
        let mut s = String::new();
        for row in (0..self.size.height).rev() {
            for col in 0..self.size.width {
                s.push(match self.stone(col, row) {
                    0 => '.',
                    1 => 'X',
                    _ => 'O',
                });
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        for col in 0..self.size.width {
            s.push(column_char(col));
            s.push(' ');
        }
        s.pop();
        s.push('\n');
        let to_move = if self.first_to_move() { "X" } else { "O" };
        match self.terminal(self.has_legal_move(), 1) {
            Some(o) => s.push_str(&format!("{} ({})\n", o.result, o.termination)),
            None => s.push_str(&format!("{to_move} to move\n")),
        }
        s
    }

    fn drawing(&self) -> game::Drawing {
        crate::draw::drawing(self)
    }

    fn move_cells(&self, m: Column) -> Option<(game::CellRef, game::CellRef)> {
        crate::draw::move_cells(self, m.0)
    }

    fn move_text(&self, m: Column) -> String {
        column_char(m.0).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Column, GameError> {
        let t = text.trim();
        let mut chars = t.chars();
        let (Some(ch), None) = (chars.next(), chars.next()) else {
            let message = format!(
                "{:?} is not a column: one character, 1-{}",
                game::clip(t, 40),
                column_char(self.size.width - 1)
            );
            return Err(GameError::unreadable_move(t, message));
        };
        let c = parse_column(ch, self.size)?;
        if self.won {
            return Err(GameError::game_over(t, "the game is over"));
        }
        if !self.column_open(c) {
            return Err(GameError::illegal_move(t, format!("column {ch} is full")));
        }
        Ok(Column(c))
    }

    fn encoding(&self) -> Encoding {
        Encoding {
            planes: PLANES,
            move_features: MOVE_FEATURES,
            height: self.size.height as usize,
            width: self.size.width as usize,
            version: ENCODING_VERSION,
            mirror: true,
        }
    }

    fn encode_planes(&self, _repetitions: u8, out: &mut [f32]) {
        let (w, h) = (self.size.width as usize, self.size.height as usize);
        let cells = w * h;
        let landing = self.possible();
        let first = self.first_to_move();
        let h1 = h + 1;
        for col in 0..w {
            for row in 0..h {
                let bit = 1u64 << (col * h1 + row);
                let cell = (h - 1 - row) * w + col;
                let own = self.current & bit != 0;
                let theirs = !own && self.mask & bit != 0;
                out[cell] = own as u8 as f32;
                out[cells + cell] = theirs as u8 as f32;
                out[2 * cells + cell] = if !self.won && landing & bit != 0 {
                    1.0
                } else {
                    0.0
                };
                out[3 * cells + cell] = first as u8 as f32;
            }
        }
    }

    fn encode_move(&self, m: Column, features: &mut [f32]) -> (usize, usize) {
        let (w, h) = (self.size.width as usize, self.size.height as usize);
        let landing = self.landing(m.0);
        let row = self.landing_row(m.0) as usize;
        let above = landing << 1 & self.column_mask(m.0);
        features[0] = (self.own_wins() & landing != 0) as u8 as f32;
        features[1] = (self.opponent_wins() & landing != 0) as u8 as f32;
        features[2] = (self.opponent_wins() & above != 0) as u8 as f32;
        features[3] = row as f32 / h as f32;
        let cell = (h - 1 - row.min(h - 1)) * w + m.0 as usize;
        (cell, cell)
    }

    fn transform(&self, sym: usize) -> Position {
        match sym {
            0 => *self,
            _ => self.mirrored(),
        }
    }

    fn transform_move(&self, m: Column, sym: usize) -> Column {
        match sym {
            0 => m,
            _ => Column(self.size.width - 1 - m.0),
        }
    }
}

/// The baseline's evaluation: lines the side to move could complete
/// against the opponent's, and stones in the centre columns. Centipawns:
/// a threat (an empty cell that would complete a line) is worth 60, a
/// stone in the centre column 6. No captures (quiescence is this
/// evaluation); the exact solver is [`crate::solver`]'s.
impl AlphaBetaState for Position {
    type EvalParams = ();
    type EvalTables = ();
    type Captures = game::NoCaptures;
    type Solver = game::HasSolver;

    #[inline]
    fn evaluate(&self, _: &(), _: &()) -> i32 {
        let threats =
            self.own_wins().count_ones() as i32 - self.opponent_wins().count_ones() as i32;
        let mid = self.column_mask(self.size.width / 2);
        let centre = (self.current & mid).count_ones() as i32
            - ((self.current ^ self.mask) & mid).count_ones() as i32;
        60 * threats + 6 * centre
    }

    const HISTORY_SLOTS: usize = crate::position::MAX_SIDE as usize;

    #[inline]
    fn history_index(m: Column) -> usize {
        m.0 as usize
    }

    #[inline]
    fn order_move(&self, m: Column) -> MoveOrder {
        if self.wins_with(m.0) {
            MoveOrder::Good(1000)
        } else {
            MoveOrder::Quiet
        }
    }

    /// Every drop: a winning drop is ordered first but takes nothing, so it
    /// may become a killer and feeds the history.
    #[inline]
    fn is_quiet(&self, _m: Column) -> bool {
        true
    }
}

/// Connect Four's exact solver ([`crate::solver::SolverPlayer`]).
impl game::ExactSolver for Position {
    fn perfect_player(depth: Option<u32>, seed: u64) -> Box<dyn game::PerfectPlayer<Self>> {
        Box::new(crate::solver::SolverPlayer::new(depth, seed))
    }
}
