//! The opening tree: how often each line of the first K plies was played
//! and how those games ended. Built from six narrow columns; the rules are
//! run once per distinct tree node (to name its move), never per game.
//! Generic over the game: the tree holds `G::State`s. [`report`] turns it
//! into the rows `triad openings` prints, in each of its formats.

pub mod report;

use std::collections::HashMap;

use game::{Game, GameMove, GameState};

use crate::error::DataError;
use crate::reader::{Columns, SameGame, ShardFile, ShardReader};
use crate::schema::col;
use crate::summary::result_index;

pub use report::{FirstMove, Format, Report, Row};

/// The opening part of one game, as read from the shards.
#[derive(Debug, Clone)]
pub struct OpeningGame {
    pub game_id: u64,
    /// The shard the game was read from (errors about the game name it).
    pub shard: std::sync::Arc<std::path::Path>,
    /// The game's start: ply 0's `position` text.
    pub start: String,
    /// The first moves (at most the requested depth), as codes.
    pub moves: Vec<u32>,
    /// 0 White wins, 1 draw, 2 Black wins, 3 unfinished.
    pub result: usize,
    pub length: u32,
}

/// Reads the first `plies` moves of every game in `shards` (only rows with
/// `ply < plies` are decoded). Games whose ply-0 row is missing are left
/// out (they cannot be placed in the tree). Shards of different games or
/// variants are an error (see [`crate::common_game`], which also tells the
/// caller which game to build the tree with).
pub fn read_opening_games(
    shards: &[ShardFile],
    plies: usize,
    mut progress: impl FnMut(u64),
) -> Result<Vec<OpeningGame>, DataError> {
    struct Partial {
        start: Option<String>,
        moves: Vec<Option<u32>>,
        result: usize,
        length: u32,
    }
    // Keyed by (shard, game id): every writer writes whole games into one
    // shard, and ids of different shards (two runs, two workers) may
    // collide, so a game is never merged with another shard's game.
    let mut games: HashMap<(usize, u64), Partial> = HashMap::new();
    let mut order: Vec<(usize, u64)> = Vec::new();
    let want = plies.max(1);
    let mut same_game = SameGame::default();
    let paths: Vec<std::sync::Arc<std::path::Path>> =
        shards.iter().map(|s| s.path.as_path().into()).collect();
    for (si, shard) in shards.iter().enumerate() {
        let reader = ShardReader::open(&shard.path)?;
        same_game.check(&reader)?;
        let rows = reader.num_rows();
        let batches = reader.read_filtered(
            &[
                col::GAME_ID,
                col::PLY,
                col::POSITION,
                col::CHOSEN_MOVE,
                col::RESULT,
                col::GAME_LENGTH,
            ],
            Some(want as u32),
        )?;
        for b in &batches {
            let err = |e: crate::ColumnError| DataError::caused(&shard.path, e);
            let c = Columns::new(b);
            let id = c.u64(col::GAME_ID).map_err(err)?;
            let ply = c.u32(col::PLY).map_err(err)?;
            let position = c.str(col::POSITION).map_err(err)?;
            let chosen = c.u32(col::CHOSEN_MOVE).map_err(err)?;
            let result = c.str(col::RESULT).map_err(err)?;
            let length = c.u32(col::GAME_LENGTH).map_err(err)?;
            for i in 0..b.num_rows() {
                let p = ply.value(i) as usize;
                if p >= want {
                    continue;
                }
                let g = games.entry((si, id.value(i))).or_insert_with(|| {
                    order.push((si, id.value(i)));
                    Partial {
                        start: None,
                        moves: vec![None; want],
                        result: result_index(result.value(i)),
                        length: length.value(i),
                    }
                });
                if p == 0 {
                    g.start = Some(position.value(i).to_string());
                }
                g.moves[p] = Some(chosen.value(i));
            }
        }
        progress(rows);
    }
    Ok(order
        .into_iter()
        .filter_map(|key| {
            let g = games.remove(&key)?;
            let id = key.1;
            let start = g.start?;
            let limit = (g.length as usize).min(plies);
            let moves = g.moves[..limit].iter().map_while(|m| *m).collect();
            Some(OpeningGame {
                game_id: id,
                shard: paths[key.0].clone(),
                start,
                moves,
                result: g.result,
                length: g.length,
            })
        })
        .collect())
}

/// Counts of the games through a node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineStats {
    pub games: u64,
    /// White wins, draws, Black wins, unfinished.
    pub results: [u64; 4],
    pub total_length: u64,
    /// Games that ended exactly after this line (no child move).
    pub ended_here: u64,
}

impl LineStats {
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_length as f64 / self.games as f64
        }
    }

    /// White's score: (wins + draws / 2) / finished games; 0.5 if none finished.
    pub fn white_score(&self) -> f64 {
        let finished = self.results[0] + self.results[1] + self.results[2];
        if finished == 0 {
            0.5
        } else {
            (self.results[0] as f64 + 0.5 * self.results[1] as f64) / finished as f64
        }
    }
}

/// A node of the tree: the line reached by a sequence of moves.
#[derive(Debug, Clone)]
pub struct Node<S> {
    pub parent: Option<usize>,
    /// Plies from the start (0 for a root).
    pub depth: usize,
    /// The move leading here (code and canonical text); roots have none.
    pub code: u32,
    pub text: String,
    pub stats: LineStats,
    /// Children, by move code.
    pub children: HashMap<u32, usize>,
    /// The position reached.
    pub position: S,
}

/// The opening tree, one root per distinct start position.
#[derive(Debug, Clone)]
pub struct OpeningTree<S> {
    pub nodes: Vec<Node<S>>,
    /// Root node per start position text, in order of first appearance.
    pub roots: Vec<(String, usize)>,
    pub plies: usize,
}

impl<S: GameState> OpeningTree<S> {
    /// Builds the tree to depth `plies` in `game` (the shards' game and
    /// variant). `move_text` names a move in a position (e.g.
    /// `GameState::move_text`); it runs once per node. Fails on an illegal
    /// move or a bad start position, naming the game.
    pub fn build<G: Game<State = S>>(
        game: &G,
        games: &[OpeningGame],
        plies: usize,
        move_text: impl Fn(&S, S::Move) -> String,
    ) -> Result<OpeningTree<S>, crate::RecordError> {
        let mut tree = OpeningTree {
            nodes: Vec::new(),
            roots: Vec::new(),
            plies,
        };
        let mut root_of: HashMap<&str, usize> = HashMap::new();
        for g in games {
            let root = match root_of.get(g.start.as_str()) {
                Some(&r) => r,
                None => {
                    let position = game.parse_state(&g.start).map_err(|source| {
                        crate::RecordError::BadStart {
                            shard: g.shard.to_path_buf(),
                            game_id: g.game_id,
                            start: game::clip(&g.start, 200).to_string(),
                            source: Box::new(source),
                        }
                    })?;
                    let r = tree.nodes.len();
                    tree.nodes.push(Node {
                        parent: None,
                        depth: 0,
                        code: 0,
                        text: String::new(),
                        stats: LineStats::default(),
                        children: HashMap::new(),
                        position,
                    });
                    tree.roots.push((g.start.clone(), r));
                    root_of.insert(&g.start, r);
                    r
                }
            };
            let mut node = root;
            tree.count(node, g);
            for (ply, &code) in g.moves.iter().enumerate().take(plies) {
                node = match tree.nodes[node].children.get(&code) {
                    Some(&child) => child,
                    None => {
                        let parent = &tree.nodes[node];
                        let m = S::Move::from_code(code)
                            .filter(|&m| parent.position.is_legal(m))
                            .ok_or_else(|| crate::RecordError::IllegalInShard {
                                shard: g.shard.to_path_buf(),
                                game_id: g.game_id,
                                ply,
                                code,
                            })?;
                        let text = move_text(&parent.position, m);
                        let position = parent.position.play(m);
                        let depth = parent.depth + 1;
                        let child = tree.nodes.len();
                        tree.nodes[node].children.insert(code, child);
                        tree.nodes.push(Node {
                            parent: Some(node),
                            depth,
                            code,
                            text,
                            stats: LineStats::default(),
                            children: HashMap::new(),
                            position,
                        });
                        child
                    }
                };
                tree.count(node, g);
            }
            if g.moves.len() < plies && g.length as usize == g.moves.len() {
                tree.nodes[node].stats.ended_here += 1;
            }
        }
        Ok(tree)
    }

    fn count(&mut self, node: usize, g: &OpeningGame) {
        let s = &mut self.nodes[node].stats;
        s.games += 1;
        s.results[g.result.min(3)] += 1;
        s.total_length += g.length as u64;
    }

    /// Total games in the tree.
    pub fn total_games(&self) -> u64 {
        self.roots
            .iter()
            .map(|&(_, r)| self.nodes[r].stats.games)
            .sum()
    }

    /// The moves (text) from the root to `node`.
    pub fn line(&self, node: usize) -> Vec<&str> {
        let mut out = Vec::new();
        let mut n = node;
        while let Some(p) = self.nodes[n].parent {
            out.push(self.nodes[n].text.as_str());
            n = p;
        }
        out.reverse();
        out
    }

    /// Children of `node`, most played first (ties by text).
    pub fn sorted_children(&self, node: usize) -> Vec<usize> {
        let mut c: Vec<usize> = self.nodes[node].children.values().copied().collect();
        c.sort_by(|&a, &b| {
            let (na, nb) = (&self.nodes[a], &self.nodes[b]);
            nb.stats
                .games
                .cmp(&na.stats.games)
                .then(na.text.cmp(&nb.text))
        });
        c
    }

    /// Non-root nodes with at least `min_games` games, depth first, most
    /// played first. A node below the threshold hides its subtree.
    pub fn lines(&self, min_games: u64) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        for &(_, r) in self.roots.iter().rev() {
            stack.push(r);
        }
        while let Some(n) = stack.pop() {
            if self.nodes[n].parent.is_some() {
                if self.nodes[n].stats.games < min_games {
                    continue;
                }
                out.push(n);
            }
            for c in self.sorted_children(n).into_iter().rev() {
                stack.push(c);
            }
        }
        out
    }
}
