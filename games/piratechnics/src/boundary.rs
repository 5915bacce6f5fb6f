//! PiRaTeKnIcS behind the game boundary (`game::Game`, `game::GameState`,
//! `game::GameMove`), and its named variants.
//!
//! The inherent methods of [`Position`] and [`Move`] do the work; these impls
//! only route the traits to them, so generic code monomorphised for
//! PiRaTeKnIcS runs exactly the code it ran before the boundary existed.

use crate::encode::{cell_index, encode_move_features, encode_planes};
use crate::{outcome_of_with, Move, Position, Variant, VariantError, MOVE_FEATURES, PLANES};
use game::GameError;
use game::{Color, Encoding, GameState, Outcome};

/// PiRaTeKnIcS in one variant: the value the binary's registry builds from
/// `[game] name = "piratechnics"`.
#[derive(Clone, Copy, Debug)]
pub struct Piratechnics {
    variant: &'static Variant,
}

/// PiRaTeKnIcS in the registry: `[game] name = "piratechnics"`, its
/// variants, and its one key, `capacity = 1..6` (overriding the variant's).
pub const DESCRIPTOR: game::Descriptor<Piratechnics> = game::Descriptor {
    about: game::About {
        name: "piratechnics",
        variants: "standard, 8x8, capacity2, capacity4",
        keys: "capacity = 1..6 (ship capacity, overrides the variant's)",
    },
    build: from_options,
};

/// The game of a variant name and `[game]` keys ([`DESCRIPTOR`]).
fn from_options(variant: &str, options: &game::GameOptions) -> Result<Piratechnics, GameError> {
    let mut capacity = None;
    for (key, value) in options {
        match key.as_str() {
            "capacity" => {
                let c = value
                    .as_integer()
                    .filter(|c| (1..=6).contains(c))
                    .ok_or_else(|| {
                        GameError::options(
                            "capacity",
                            format!("game.capacity: {value} is not a ship capacity 1..6"),
                        )
                    })?;
                capacity = Some(c as u8);
            }
            other => {
                return Err(GameError::options(
                    other,
                    game::unknown_key(other, "piratechnics", "capacity"),
                ))
            }
        }
    }
    Piratechnics::named(variant, capacity)
        .map_err(|e| GameError::options("variant", format!("game.variant: {e}")))
}

/// The named variants: `(name, what it is)`.
pub const VARIANTS: [(&str, &str); 4] = [
    (
        "standard",
        "6x8 board without its corners, ships of capacity 3 (RULES.md)",
    ),
    (
        "8x8",
        "the inventor's 8x8 board: all 64 cells, capacity 3, the standard army centred",
    ),
    (
        "capacity2",
        "the standard board with ships of capacity 2 (two crew per start ship)",
    ),
    (
        "capacity4",
        "the standard board and start with ships of capacity 4",
    ),
];

/// The 8x8 start: the standard army centred on a full 8x8 board.
pub const START_8X8: &str = "2[rbn][qrb][kbn][rbn]2/1[ppp][ppp][ppp][ppp][ppp][ppp]1/8/8/8/8/1[PPP][PPP][PPP][PPP][PPP][PPP]1/2[RBN][QRB][KBN][RBN]2 w - 0 1";
/// The capacity-2 start: two crew per ship (one bishop less per side than a
/// chess army's minor pieces, the same pawn count as the standard start's
/// ships).
pub const START_CAPACITY2: &str = "[rn][qb][kb][rn]/[pp][pp][pp][pp][pp][pp]/6/6/6/6/[PP][PP][PP][PP][PP][PP]/[RN][QB][KB][RN] w - 0 1";

impl Piratechnics {
    /// The standard game.
    pub fn standard() -> Piratechnics {
        Piratechnics {
            variant: Variant::standard(),
        }
    }

    /// A game on any variant (a custom board, capacity or start).
    pub fn on(variant: &'static Variant) -> Piratechnics {
        Piratechnics { variant }
    }

    /// A named variant (see [`VARIANTS`]), optionally with another ship
    /// capacity. Each name is built once per process and shared.
    pub fn named(name: &str, capacity: Option<u8>) -> Result<Piratechnics, VariantError> {
        use std::collections::HashMap;
        use std::sync::Mutex;
        /// Variants built so far, by name and capacity.
        type Built = HashMap<(String, Option<u8>), &'static Variant>;
        static BUILT: Mutex<Option<Built>> = Mutex::new(None);
        if name == "standard" && capacity.is_none() {
            return Ok(Piratechnics::standard());
        }
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        let map = built.get_or_insert_with(HashMap::new);
        if let Some(&v) = map.get(&(name.to_string(), capacity)) {
            return Ok(Piratechnics { variant: v });
        }
        let std = Variant::standard();
        let corners: Vec<_> = [(0, 0), (5, 0), (0, 7), (5, 7)]
            .iter()
            .map(|&(f, r)| crate::Square::new(f, r))
            .collect();
        let (w, h, cap, missing, start) = match name {
            "standard" => (6, 8, 3, corners.as_slice(), std.start_tfen.as_str()),
            "8x8" => (8, 8, 3, &[][..], START_8X8),
            "capacity2" => (6, 8, 2, corners.as_slice(), START_CAPACITY2),
            "capacity4" => (6, 8, 4, corners.as_slice(), std.start_tfen.as_str()),
            other => {
                return Err(VariantError::Unknown {
                    name: other.to_string(),
                    known: VARIANTS.iter().map(|v| v.0).collect(),
                });
            }
        };
        let cap = capacity.unwrap_or(cap);
        let full = match capacity {
            Some(c) => format!("{name},capacity={c}"),
            None => name.to_string(),
        };
        let v = Variant::custom(&full, w, h, cap, missing, start)?;
        // The start must be a legal position of the variant (e.g. ships
        // within a lowered capacity).
        Position::from_tfen_in(&v.start_tfen, v).map_err(|source| VariantError::Start {
            variant: full,
            source,
        })?;
        map.insert((name.to_string(), capacity), v);
        Ok(Piratechnics { variant: v })
    }

    pub fn variant_tables(&self) -> &'static Variant {
        self.variant
    }
}

/// Middle-game positions from the inventor's first sample game and from
/// random play (`shared/spec/vectors/perft.txt`), fixed so that figures
/// of different builds compare (`triad bench search`).
pub const BENCH_POSITIONS: [&str; 6] = [
    "[rbn][qrb][kbn][rbn]/[ppp]3[ppp][ppp]/6/1[pp][ppp][PP]2/2[pp][PPP][PP]1/6/[PPP][PPP]3[PPP]/[RBN][QRB][KBN][RBN] w c5c7 1 6",
    "[rbn][qrb][kbn][rbn]/4[ppp][ppp]/[ppp]1[P]3/1[p]1[PP]2/[PPP]1[pp]1[P]1/3[p]2/1[PPP]3[PPP]/[RBN][QRB][KBN][RBN] w a6a7 2 11",
    "[rbn][qrb][kbn][rbn]/4[ppp]1/[]1[P]3/1[p]1[PP]1[p]/[KBN][PPP][pp]1[pp][PPP]/3[p]2/6/[RBN][QRB][][RBN] w - 0 16",
    "[][q][kbn]1/[Nrb]3[ppp][n]/[]1[P]3/5[rbp]/1[PPP][pp][Prb][pp][PPP]/[RB]1[KB][p]2/6/1[QRB][][RBN] w d4d5 2 21",
    "[kqr][bpp][n]1/1[npp][ppp][][ppp][ppp]/6/2[bpp]3/[PPb]5/3[KNP]2/[P][RPP][PP][P][PPP][BP]/[BN][QR]1[N] b - 2 11",
    "[rbn][p][][knp]/[][ppp][p]2[ppp]/6/3[npp][Pp]1/3[Pp]2/2[PPP]3/[RPP][P]2[KPP][PPP]/[QBN][R][BN][] w d5d7 1 14",
];

impl game::Game for Piratechnics {
    type State = Position;
    type Move = Move;
    const NAME: &'static str = "piratechnics";

    fn variant(&self) -> &str {
        &self.variant.name
    }
    fn start(&self) -> Position {
        Position::start_of(self.variant)
    }
    fn parse_state(&self, text: &str) -> Result<Position, GameError> {
        Position::from_tfen_in(text, self.variant)
            .map_err(|e| GameError::position(e.tfen.clone(), e.to_string()))
    }
    /// The inventor's notation, as in his game records (RULES.md §9.2):
    /// `d2<PPP>-d4`, check marks `*`, mate `**`, numbered from the
    /// position's move number.
    fn record_text(&self, history: &game::History<Position>, resigned: bool) -> String {
        crate::write_record(history.start(), history.moves(), resigned)
    }

    /// The inventor's records (RULES.md §9.2): his move notation, check
    /// marks compared with the rules, variations skipped.
    fn replay_record(
        &self,
        start: Position,
        text: &str,
    ) -> Result<game::RecordReplay<Position>, GameError> {
        let r = crate::replay(start, text)
            .map_err(|e| GameError::record(Some(e.line), e.to_string()))?;
        Ok(game::RecordReplay {
            moves: r.plies.iter().map(|p| p.canonical.clone()).collect(),
            history: r.game,
            outcome: r.outcome,
            warnings: r.warnings,
        })
    }

    /// The six middle-game positions of [`BENCH_POSITIONS`] on the
    /// standard board (random playouts on other variants).
    fn bench_positions(&self) -> Vec<Position> {
        if !std::ptr::eq(self.variant, Variant::standard()) {
            return game::random_positions(&self.start(), 6, 1, 40);
        }
        BENCH_POSITIONS
            .iter()
            .map(|t| Position::from_tfen(t).expect("the benchmark positions parse"))
            .collect()
    }

    /// The identity and, where the board allows it, the file mirror.
    fn symmetries(&self) -> usize {
        if self.variant.mirror_symmetric() {
            2
        } else {
            1
        }
    }
}

impl GameState for Position {
    type Move = Move;
    // legal_moves, has_legal_move, count_legal_moves, is_legal, apply,
    // play, hash and reversible_plies: the position's own methods.
    game::forward_game_state!();

    #[inline]
    fn side(&self) -> Color {
        Position::side(self)
    }
    #[inline]
    fn terminal(&self, has_legal_move: bool, repetitions: u32) -> Option<Outcome> {
        outcome_of_with(self, has_legal_move, repetitions)
    }
    /// A mate in one: the cheap check test first.
    #[inline]
    fn is_winning_move(&self, m: Move) -> bool {
        let after = self.play(m);
        after.in_check() && !after.has_legal_move()
    }
    fn to_text(&self) -> String {
        self.to_tfen()
    }
    fn diagram(&self) -> String {
        crate::diagram::diagram(self)
    }
    fn drawing(&self) -> game::Drawing {
        crate::draw::drawing(self)
    }
    fn move_cells(&self, m: Move) -> Option<(game::CellRef, game::CellRef)> {
        crate::draw::move_cells(self, m)
    }
    fn move_text(&self, m: Move) -> String {
        self.move_to_text(m)
    }
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Position::parse_move(self, text).map_err(|e| {
            let message = e.to_string();
            if e.reason.is_unreadable() {
                GameError::unreadable_move(e.text, message)
            } else {
                GameError::illegal_move(e.text, message)
            }
        })
    }
    fn encoding(&self) -> Encoding {
        Encoding {
            planes: PLANES,
            move_features: MOVE_FEATURES,
            height: self.variant().height as usize,
            width: self.variant().width as usize,
            version: crate::ENCODING_VERSION,
            mirror: false,
        }
    }
    #[inline]
    fn encode_planes(&self, repetitions: u8, out: &mut [f32]) {
        encode_planes(self, repetitions, out)
    }
    #[inline]
    fn encode_move(&self, m: Move, features: &mut [f32]) -> (usize, usize) {
        let (v, side) = (self.variant(), self.side());
        encode_move_features(v, side, m, features);
        (cell_index(v, side, m.from()), cell_index(v, side, m.to()))
    }
    fn transform(&self, sym: usize) -> Position {
        match sym {
            0 => self.clone(),
            _ => self.mirror(),
        }
    }
    fn transform_move(&self, m: Move, sym: usize) -> Move {
        match sym {
            0 => m,
            _ => m.mirror(self.variant()),
        }
    }
}

game::forward_game_move!(Move);
