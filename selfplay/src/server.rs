//! One network serving searches that run on other threads.
//!
//! Match players search one game each, one leaf at a time. On a GPU a batch
//! of one is all latency, so players of the same checkpoint share an
//! [`EvalServer`]: each player holds an [`EvalClient`] (an [`Evaluator`])
//! that sends its leaf to the server thread and waits for the answer. The
//! server evaluates everything queued as one batch; while a forward pass
//! runs, the other games' leaves queue up, so batches grow with the number
//! of games played at once without any waiting on purpose.
//!
//! Results equal those of a [`mcts::NetworkEvaluator`] up to the rounding
//! of batched kernels, which may differ by batch size: a match with shared
//! evaluation is not bitwise reproducible, which is why `triad` uses it only
//! on CUDA (where kernels are not bitwise reproducible anyway).

use game::GameState;
use mcts::{Evaluator, Request};
use model::{Encoder, Network};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread;

/// A leaf to evaluate, owned so it can cross threads.
struct Leaf<S: GameState> {
    position: S,
    repetitions: u8,
    moves: Vec<S::Move>,
}

/// What comes back: the priors of every leaf's moves back to back, and one
/// W/D/L per leaf.
type Answer = (Vec<f32>, Vec<[f32; 3]>);

struct Job<S: GameState> {
    leaves: Vec<Leaf<S>>,
    reply: Sender<Answer>,
}

/// The server: a thread that owns the network. It stops when the server and
/// every client are dropped.
pub struct EvalServer<S: GameState> {
    jobs: Sender<Job<S>>,
}

impl<S: GameState> EvalServer<S> {
    /// Starts the server thread; at most `max_batch` leaves go into one
    /// forward pass.
    pub fn start(net: Network, max_batch: usize) -> EvalServer<S> {
        let (jobs, queue) = channel::<Job<S>>();
        let max_batch = max_batch.max(1);
        thread::Builder::new()
            .name("eval-server".into())
            .spawn(move || serve(net, queue, max_batch))
            .expect("cannot start the evaluation server thread");
        EvalServer { jobs }
    }

    /// A handle for one search; any number may exist, on any threads.
    pub fn client(&self) -> EvalClient<S> {
        EvalClient {
            jobs: self.jobs.clone(),
        }
    }
}

fn serve<S: GameState>(net: Network, queue: Receiver<Job<S>>, max_batch: usize) {
    let mut encoder = Encoder::<S>::new();
    let mut policy = Vec::new();
    let mut wdl = Vec::new();
    let mut batch: Vec<Job<S>> = Vec::new();
    // Blocks for the first job, then takes whatever else is already queued.
    while let Ok(first) = queue.recv() {
        let mut leaves = first.leaves.len();
        batch.push(first);
        while leaves < max_batch {
            match queue.try_recv() {
                Ok(job) => {
                    leaves += job.leaves.len();
                    batch.push(job);
                }
                Err(_) => break,
            }
        }
        encoder.clear();
        for job in &batch {
            for leaf in &job.leaves {
                encoder.push_with_moves(&leaf.position, leaf.repetitions, &leaf.moves);
            }
        }
        encoder.finish();
        net.evaluate_encoded(&encoder, &mut policy, &mut wdl);
        let (mut p, mut w) = (0, 0);
        for job in batch.drain(..) {
            let moves: usize = job.leaves.iter().map(|l| l.moves.len()).sum();
            let n = job.leaves.len();
            // A client that gave up (its game ended) is no error.
            let _ = job
                .reply
                .send((policy[p..p + moves].to_vec(), wdl[w..w + n].to_vec()));
            p += moves;
            w += n;
        }
    }
}

/// One search's handle on an [`EvalServer`].
pub struct EvalClient<S: GameState> {
    jobs: Sender<Job<S>>,
}

impl<S: GameState> Evaluator<S> for EvalClient<S> {
    fn evaluate(
        &mut self,
        batch: &[Request<'_, S>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        let leaves = batch
            .iter()
            .map(|r| Leaf {
                position: r.position.clone(),
                repetitions: r.repetitions,
                moves: r.moves.to_vec(),
            })
            .collect();
        let (reply, answer) = channel();
        // The server thread only ends when every client is gone, so these
        // fail only if it panicked (a libtorch error): nothing to go on with.
        self.jobs
            .send(Job { leaves, reply })
            .expect("the evaluation server stopped");
        let (p, w) = answer.recv().expect("the evaluation server stopped");
        policy.clear();
        policy.extend_from_slice(&p);
        wdl.clear();
        wdl.extend_from_slice(&w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game;
    use mcts::NetworkEvaluator;
    use model::Shape;
    use piratechnics::{Move, Piratechnics, Position};
    use std::sync::Mutex;
    use tch::Device;

    /// Two tiny networks of one seed, the second behind a plain evaluator.
    /// libtorch's generator is global, so tests creating networks at the
    /// same time would interleave its draws: a lock keeps the pair equal.
    fn twin_networks() -> (Network, NetworkEvaluator<Position>) {
        static LOCK: Mutex<()> = Mutex::new(());
        let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let shape = Shape {
            blocks: 1,
            channels: 8,
            ..Shape::of(
                &model::ModelConfig::default(),
                Piratechnics::standard().encoding(),
            )
        };
        (
            Network::with_shape(shape, Device::Cpu, 5),
            NetworkEvaluator::new(Network::with_shape(shape, Device::Cpu, 5)),
        )
    }

    /// Jobs already queued go through one forward pass and each gets its own
    /// slice of the answer back.
    #[test]
    fn queued_jobs_share_a_batch_and_get_their_own_answers() {
        let (net, mut direct) = twin_networks();
        let mut pos = Position::start();
        let mut leaves = Vec::new();
        for i in 0..5 {
            let moves = pos.legal_move_vec();
            leaves.push(Leaf {
                position: pos.clone(),
                repetitions: 1,
                moves: moves.to_vec(),
            });
            pos = pos.play(moves[(3 * i) % moves.len()]);
        }
        // Jobs of 1, 3 and 1 leaves, queued before the server reads any.
        let (jobs, queue) = channel();
        let mut answers = Vec::new();
        let mut next = leaves.into_iter();
        for n in [1, 3, 1] {
            let (reply, answer) = channel();
            let job: Vec<Leaf<Position>> = next.by_ref().take(n).collect();
            let requests: Vec<(Position, Vec<Move>)> = job
                .iter()
                .map(|l| (l.position.clone(), l.moves.clone()))
                .collect();
            jobs.send(Job { leaves: job, reply }).unwrap();
            answers.push((requests, answer));
        }
        drop(jobs);
        serve(net, queue, 64);
        for (requests, answer) in answers {
            let (p, w) = answer.recv().unwrap();
            let reqs: Vec<Request<Position>> = requests
                .iter()
                .map(|(position, moves)| Request {
                    position,
                    repetitions: 1,
                    moves,
                })
                .collect();
            let (mut ep, mut ew) = (Vec::new(), Vec::new());
            direct.evaluate(&reqs, &mut ep, &mut ew);
            assert_eq!((p.len(), w.len()), (ep.len(), ew.len()));
            for (a, b) in p.iter().zip(&ep) {
                assert!((a - b).abs() < 1e-4, "policy {a} vs {b}");
            }
            for (a, b) in w.as_flattened().iter().zip(ew.as_flattened()) {
                assert!((a - b).abs() < 1e-4, "wdl {a} vs {b}");
            }
        }
    }

    #[test]
    fn clients_on_many_threads_get_what_the_network_says() {
        let (net, mut direct) = twin_networks();
        // Positions along a game, each evaluated alone by the plain evaluator.
        let mut positions = vec![Position::start()];
        for i in 0..12 {
            let last = positions.last().unwrap().clone();
            let moves = last.legal_move_vec();
            positions.push(last.play(moves[(i * 7) % moves.len()]));
        }
        let expected: Vec<Answer> = positions
            .iter()
            .map(|pos| {
                let moves = pos.legal_move_vec();
                let (mut p, mut w) = (Vec::new(), Vec::new());
                let req = Request {
                    position: pos,
                    repetitions: 1,
                    moves: &moves,
                };
                direct.evaluate(&[req], &mut p, &mut w);
                (p, w)
            })
            .collect();
        let server = EvalServer::start(net, 64);
        thread::scope(|s| {
            for t in 0..4 {
                let mut client = server.client();
                let (positions, expected) = (&positions, &expected);
                s.spawn(move || {
                    for round in 0..20 {
                        let k = (t * 5 + round * 3) % positions.len();
                        let moves = positions[k].legal_move_vec();
                        let (mut p, mut w) = (Vec::new(), Vec::new());
                        let req = Request {
                            position: &positions[k],
                            repetitions: 1,
                            moves: &moves,
                        };
                        client.evaluate(&[req], &mut p, &mut w);
                        assert_eq!(p.len(), expected[k].0.len());
                        for (a, b) in p.iter().zip(&expected[k].0) {
                            assert!((a - b).abs() < 1e-4, "policy {a} vs {b}");
                        }
                        for (a, b) in w[0].iter().zip(&expected[k].1[0]) {
                            assert!((a - b).abs() < 1e-4, "wdl {a} vs {b}");
                        }
                    }
                });
            }
        });
    }
}
