//! The random microbenchmarks of section VI-C: 100 independent ones (one to
//! ten Table II functions and one loop, in a random program order) and 200
//! dependent ones (20 inversion tasks on a random DAG with 5 or 20 expected
//! edges, half of them with a loop that depends on nothing).

use crate::cost::model::SplitMix;

use super::calls::{Call, Function, LoopKind, LoopSpec, INVERSIONS};

/// The sizes everything is scaled by: the paper's matrix sizes (950–1150)
/// and iteration counts times `size`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizes {
    pub size: f64,
}

impl Sizes {
    /// The microbenchmarks' matrix sizes: the paper's 950–1150, scaled.
    pub fn micro_n(&self) -> (f64, f64) {
        (950.0 * self.size, 1150.0 * self.size)
    }

    /// Table II's range of n for `f`, scaled; never below 4.
    pub fn train_n(&self, f: Function) -> (f64, f64) {
        let (lo, hi) = f.n_range();
        ((lo * self.size).max(4.0), (hi * self.size).max(8.0))
    }

    /// A random loop of Table III at this scale.
    pub fn sample_loop(&self, rng: &mut SplitMix) -> LoopSpec {
        let (lo, hi) = self.micro_n();
        if rng.uniform() < 0.5 {
            // The boosting loop: 640 iterations in the paper, over data whose
            // rows scale with the matrices.
            LoopSpec {
                kind: LoopKind::Boost,
                iterations: ((640.0 * self.size / 0.12).round() as usize).max(8),
                n: ((1700.0 * self.size).round() as usize).max(BOOST_MIN_ROWS),
            }
        } else {
            let n = rng.range(lo, hi).round().max(2.0) as usize;
            LoopSpec {
                kind: LoopKind::MatVec,
                iterations: n,
                n,
            }
        }
    }
}

/// The boosting loop's design matrix needs more rows than columns.
const BOOST_MIN_ROWS: usize = 24;

/// One microbenchmark: function tasks in program order, edges between them
/// (task index pairs, `from < to`), and maybe a loop at `loop_position` in
/// program order (that many tasks come before it).
#[derive(Clone, Debug, PartialEq)]
pub struct Micro {
    pub id: usize,
    pub tasks: Vec<Call>,
    pub edges: Vec<(usize, usize)>,
    pub looped: Option<LoopSpec>,
    pub loop_position: usize,
    /// For the dependent ones: the expected number of edges it was drawn with.
    pub expected_edges: Option<usize>,
}

/// 1–10 random Table II calls and one loop, mutually independent.
pub fn independent(id: usize, sizes: &Sizes, rng: &mut SplitMix) -> Micro {
    let k = 1 + (rng.next_u64() % 10) as usize;
    let (lo, hi) = sizes.micro_n();
    let tasks: Vec<Call> = (0..k)
        .map(|_| {
            let f = Function::Table2((rng.next_u64() % 10) as usize);
            Call::sample(f, lo, hi, rng)
        })
        .collect();
    let looped = sizes.sample_loop(rng);
    let loop_position = (rng.next_u64() % (k as u64 + 1)) as usize;
    Micro {
        id,
        tasks,
        edges: Vec::new(),
        looped: Some(looped),
        loop_position,
        expected_edges: None,
    }
}

/// Tasks in a dependent benchmark.
pub const DEPENDENT_TASKS: usize = 20;

/// 20 inversion tasks of one size n on a random DAG: each of the 190 pairs
/// `i < j` is an edge with probability `expected_edges / 190`; a loop when
/// `with_loop`.
pub fn dependent(
    id: usize,
    sizes: &Sizes,
    expected_edges: usize,
    with_loop: bool,
    rng: &mut SplitMix,
) -> Micro {
    let (lo, hi) = sizes.micro_n();
    let n = rng.range(lo, hi).round().max(2.0) as usize;
    let tasks: Vec<Call> = (0..DEPENDENT_TASKS)
        .map(|_| Call {
            function: Function::Invert(1 + (rng.next_u64() % INVERSIONS as u64) as usize),
            n_a: n,
            n_b: n,
        })
        .collect();
    let pairs = DEPENDENT_TASKS * (DEPENDENT_TASKS - 1) / 2;
    let prob = expected_edges as f64 / pairs as f64;
    let mut edges = Vec::new();
    for j in 0..DEPENDENT_TASKS {
        for i in 0..j {
            if rng.uniform() < prob {
                edges.push((i, j));
            }
        }
    }
    let looped = with_loop.then(|| sizes.sample_loop(rng));
    let loop_position = (rng.next_u64() % (DEPENDENT_TASKS as u64 + 1)) as usize;
    Micro {
        id,
        tasks,
        edges,
        looped,
        loop_position,
        expected_edges: Some(expected_edges),
    }
}

/// The paper's suites: `n_independent` independent benchmarks, then
/// `n_dependent` dependent ones in four equal classes (5 or 20 expected
/// edges, without or with a loop).
pub fn suites(
    sizes: &Sizes,
    n_independent: usize,
    n_dependent: usize,
    seed: u64,
) -> (Vec<Micro>, Vec<Micro>) {
    let mut rng = SplitMix(seed);
    let ind = (0..n_independent)
        .map(|id| independent(id, sizes, &mut rng))
        .collect();
    let dep = (0..n_dependent)
        .map(|id| {
            let class = dependent_class(id, n_dependent);
            dependent(id, sizes, class.0, class.1, &mut rng)
        })
        .collect();
    (ind, dep)
}

/// The class of dependent benchmark `id` of `total`: quarters with
/// (5, no loop), (5, loop), (20, no loop), (20, loop).
pub fn dependent_class(id: usize, total: usize) -> (usize, bool) {
    let quarter = (4 * id) / total.max(1);
    ([5, 5, 20, 20][quarter.min(3)], quarter % 2 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: Sizes = Sizes { size: 0.12 };

    #[test]
    fn independent_benchmarks_have_one_to_ten_calls_and_one_loop() {
        let (ind, _) = suites(&SIZES, 300, 0, 3);
        let mut counts = [0usize; 11];
        for m in &ind {
            assert!((1..=10).contains(&m.tasks.len()), "{m:?}");
            assert!(m.edges.is_empty());
            assert!(m.looped.is_some());
            assert!(m.loop_position <= m.tasks.len());
            counts[m.tasks.len()] += 1;
            for c in &m.tasks {
                assert!(matches!(c.function, Function::Table2(_)));
                assert!((114..=138).contains(&c.n_a), "{c:?}");
            }
        }
        // Every count from 1 to 10 occurs.
        assert!(counts[1..].iter().all(|&c| c > 0), "{counts:?}");
    }

    #[test]
    fn dependent_benchmarks_have_20_tasks_acyclic_edges_and_half_a_loop() {
        let total = 400;
        let (_, dep) = suites(&SIZES, 0, total, 11);
        assert_eq!(dep.iter().filter(|m| m.looped.is_some()).count(), total / 2);
        for expected in [5usize, 20] {
            let class: Vec<&Micro> = dep
                .iter()
                .filter(|m| m.expected_edges == Some(expected))
                .collect();
            assert_eq!(class.len(), total / 2);
            let mean =
                class.iter().map(|m| m.edges.len()).sum::<usize>() as f64 / class.len() as f64;
            // Binomial(190, e/190): the mean of 200 draws is within a few
            // standard errors of e.
            let se = (expected as f64 / class.len() as f64).sqrt();
            assert!(
                (mean - expected as f64).abs() < 4.0 * se,
                "{expected}: mean {mean}"
            );
        }
        for m in &dep {
            assert_eq!(m.tasks.len(), DEPENDENT_TASKS);
            // Edges point forward in program order, so the graph is acyclic.
            assert!(m.edges.iter().all(|&(a, b)| a < b && b < DEPENDENT_TASKS));
            let n = m.tasks[0].n_a;
            assert!(m.tasks.iter().all(|c| c.n_a == n));
        }
    }

    #[test]
    fn the_same_seed_makes_the_same_suites() {
        assert_eq!(suites(&SIZES, 5, 8, 42), suites(&SIZES, 5, 8, 42));
        assert_ne!(suites(&SIZES, 5, 8, 42).0, suites(&SIZES, 5, 8, 43).0);
    }
}
