//! The self-play learner's network: a trunk of fully connected `ReLU` layers shared by two
//! heads, a policy (one logit a move, softmax over the legal moves only) and a value (tanh,
//! −1..1, for the player to move). Written by hand in `f32`: at this size a forward pass is
//! a few thousand multiply-adds, and what a framework adds per call costs more than that
//! (see the README's self-play figures).
//!
//! Training minimises, over a batch, the cross-entropy of the policy against the search's
//! visit distribution plus the squared error of the value against the game's result, with
//! Adam and a small L2 weight decay.

use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One fully connected layer: `outputs` rows of `inputs` weights, and a bias per output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dense {
    /// Numbers it takes in.
    pub inputs: usize,
    /// Numbers it gives out.
    pub outputs: usize,
    /// Row-major: the weights into output `o` are `weights[o * inputs..][..inputs]`.
    pub weights: Vec<f32>,
    /// One an output.
    pub biases: Vec<f32>,
}

impl Dense {
    /// A layer with He-uniform weights (suited to `ReLU`) and zero biases.
    fn new(inputs: usize, outputs: usize, rng: &mut ChaCha8Rng) -> Self {
        let range = (6.0 / inputs as f32).sqrt();
        Self {
            inputs,
            outputs,
            weights: (0..inputs * outputs)
                .map(|_| rng.random_range(-range..=range))
                .collect(),
            biases: vec![0.0; outputs],
        }
    }

    /// `out = W·input + b`.
    fn forward(&self, input: &[f32], out: &mut [f32]) {
        for (o, (row, bias)) in self
            .weights
            .chunks_exact(self.inputs)
            .zip(&self.biases)
            .enumerate()
        {
            out[o] = bias + dot(row, input);
        }
    }

    /// Adds this layer's gradient for one sample (`d_out` the loss's gradient at its
    /// outputs, `input` what it was given) into `grad`, and writes the gradient at its
    /// inputs into `d_input`, if asked.
    fn backward(
        &self,
        input: &[f32],
        d_out: &[f32],
        grad: &mut Dense,
        d_input: Option<&mut [f32]>,
    ) {
        for (o, &d) in d_out.iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            grad.biases[o] += d;
            let row = &mut grad.weights[o * self.inputs..][..self.inputs];
            for (g, x) in row.iter_mut().zip(input) {
                *g += d * x;
            }
        }
        if let Some(d_input) = d_input {
            d_input.fill(0.0);
            for (row, &d) in self.weights.chunks_exact(self.inputs).zip(d_out) {
                if d == 0.0 {
                    continue;
                }
                for (di, w) in d_input.iter_mut().zip(row) {
                    *di += d * w;
                }
            }
        }
    }

    fn zeroed(&self) -> Self {
        Self {
            inputs: self.inputs,
            outputs: self.outputs,
            weights: vec![0.0; self.weights.len()],
            biases: vec![0.0; self.biases.len()],
        }
    }

    /// Every parameter, weights then biases: what the optimiser walks through.
    fn parameters_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.weights.iter_mut().chain(self.biases.iter_mut())
    }

    fn parameters(&self) -> impl Iterator<Item = &f32> {
        self.weights.iter().chain(self.biases.iter())
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyValueNet {
    /// The shared `ReLU` layers, input first.
    pub trunk: Vec<Dense>,
    /// From the last trunk layer to one logit a move.
    pub policy: Dense,
    /// From the last trunk layer to one number, through tanh.
    pub value: Dense,
}

/// What the network says of a position.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The prior of every move: 0 for an illegal one, the legal ones summing to 1.
    pub priors: Vec<f32>,
    /// The value for the player to move, −1 (lost) to 1 (won).
    pub value: f32,
}

/// One training position: the network's input, which moves were legal, the search's visit
/// share of each move, and the result the game gave the player to move there.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The position as the network's input.
    pub input: Vec<f32>,
    /// One flag a move: legal here.
    pub legal: Vec<bool>,
    /// The search's visit share of every move: the policy's target.
    pub policy: Vec<f32>,
    /// The game's result for the player to move here: the value's target.
    pub value: f32,
}

/// A batch's mean losses.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Losses {
    /// Cross-entropy of the priors against the visit shares.
    pub policy: f32,
    /// Squared error of the value against the result.
    pub value: f32,
}

/// The activations of one forward pass, kept for the backward pass.
struct Pass {
    /// The input, then each trunk layer's output after `ReLU`.
    layers: Vec<Vec<f32>>,
    priors: Vec<f32>,
    value: f32,
}

impl PolicyValueNet {
    /// A network for `inputs` numbers and `moves` moves, with trunk layers of the given
    /// widths (at least one), its weights drawn from `seed`.
    pub fn new(inputs: usize, widths: &[usize], moves: usize, seed: u64) -> Self {
        assert!(!widths.is_empty(), "a trunk of at least one layer");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut trunk = Vec::with_capacity(widths.len());
        let mut from = inputs;
        for &width in widths {
            trunk.push(Dense::new(from, width, &mut rng));
            from = width;
        }
        Self {
            trunk,
            policy: Dense::new(from, moves, &mut rng),
            value: Dense::new(from, 1, &mut rng),
        }
    }

    /// Numbers the network takes in.
    pub fn inputs(&self) -> usize {
        self.trunk[0].inputs
    }

    /// Moves it gives priors for.
    pub fn moves(&self) -> usize {
        self.policy.outputs
    }

    /// Weights and biases in all.
    pub fn parameter_count(&self) -> usize {
        self.layers().map(|layer| layer.parameters().count()).sum()
    }

    fn layers(&self) -> impl Iterator<Item = &Dense> {
        self.trunk.iter().chain([&self.policy, &self.value])
    }

    fn layers_mut(&mut self) -> impl Iterator<Item = &mut Dense> {
        self.trunk
            .iter_mut()
            .chain([&mut self.policy, &mut self.value])
    }

    /// The priors and value of a position (`legal` has one entry a move).
    pub fn evaluate(&self, input: &[f32], legal: &[bool]) -> Evaluation {
        let pass = self.pass(input, legal);
        Evaluation {
            priors: pass.priors,
            value: pass.value,
        }
    }

    fn pass(&self, input: &[f32], legal: &[bool]) -> Pass {
        assert_eq!(input.len(), self.inputs(), "the network's input size");
        assert_eq!(legal.len(), self.moves(), "one legal flag a move");
        let mut layers = Vec::with_capacity(self.trunk.len() + 1);
        layers.push(input.to_vec());
        for layer in &self.trunk {
            let mut out = vec![0.0; layer.outputs];
            layer.forward(layers.last().expect("the input at least"), &mut out);
            for x in &mut out {
                *x = x.max(0.0);
            }
            layers.push(out);
        }
        let top = layers.last().expect("the input at least");
        let mut logits = vec![0.0; self.moves()];
        self.policy.forward(top, &mut logits);
        let mut value = [0.0];
        self.value.forward(top, &mut value);
        Pass {
            priors: masked_softmax(&logits, legal),
            value: value[0].tanh(),
            layers,
        }
    }

    /// The batch's mean losses under the network as it is, without training.
    pub fn losses(&self, batch: &[Sample]) -> Losses {
        let mut total = Losses::default();
        for sample in batch {
            let pass = self.pass(&sample.input, &sample.legal);
            let (policy, value) = sample_losses(&pass, sample);
            total.policy += policy;
            total.value += value;
        }
        let n = batch.len().max(1) as f32;
        Losses {
            policy: total.policy / n,
            value: total.value / n,
        }
    }

    /// The gradient of the batch's mean loss (policy + value), one [`Dense`] of gradients
    /// for each layer in the order of [`PolicyValueNet::layers`], and the losses.
    fn gradient(&self, batch: &[Sample]) -> (Vec<Dense>, Losses) {
        let mut grads: Vec<Dense> = self.layers().map(Dense::zeroed).collect();
        let mut total = Losses::default();
        let scale = 1.0 / batch.len().max(1) as f32;
        for sample in batch {
            let pass = self.pass(&sample.input, &sample.legal);
            let (policy_loss, value_loss) = sample_losses(&pass, sample);
            total.policy += policy_loss * scale;
            total.value += value_loss * scale;
            // Softmax with cross-entropy: p − π on the legal moves.
            let d_logits: Vec<f32> = (0..self.moves())
                .map(|m| {
                    if sample.legal[m] {
                        (pass.priors[m] - sample.policy[m]) * scale
                    } else {
                        0.0
                    }
                })
                .collect();
            let d_value =
                [2.0 * (pass.value - sample.value) * (1.0 - pass.value * pass.value) * scale];
            let top = pass.layers.last().expect("the input at least");
            let heads = self.trunk.len();
            let mut d_top = vec![0.0; top.len()];
            let mut d_from_value = vec![0.0; top.len()];
            let (trunk_grads, head_grads) = grads.split_at_mut(heads);
            self.policy
                .backward(top, &d_logits, &mut head_grads[0], Some(&mut d_top));
            self.value
                .backward(top, &d_value, &mut head_grads[1], Some(&mut d_from_value));
            d_top
                .iter_mut()
                .zip(&d_from_value)
                .for_each(|(d, v)| *d += v);
            for (at, layer) in self.trunk.iter().enumerate().rev() {
                // Through the `ReLU`: no gradient where the unit was off.
                for (d, &out) in d_top.iter_mut().zip(&pass.layers[at + 1]) {
                    if out <= 0.0 {
                        *d = 0.0;
                    }
                }
                let mut d_input = (at > 0).then(|| vec![0.0; layer.inputs]);
                layer.backward(
                    &pass.layers[at],
                    &d_top,
                    &mut trunk_grads[at],
                    d_input.as_deref_mut(),
                );
                if let Some(d_input) = d_input {
                    d_top = d_input;
                }
            }
        }
        (grads, total)
    }

    /// One step of `optimiser` down the batch's gradient; the batch's losses before it.
    pub fn train(&mut self, batch: &[Sample], optimiser: &mut Adam) -> Losses {
        let (grads, losses) = self.gradient(batch);
        optimiser.step(self, &grads);
        losses
    }

    /// Why this network cannot be used (a file edited by hand, say): layers that do not
    /// chain, weight counts that do not match, numbers that are not finite.
    pub fn malformed(&self) -> Option<String> {
        let Some(first) = self.trunk.first() else {
            return Some("the network has no hidden layer".to_string());
        };
        let mut from = first.inputs;
        for (at, layer) in self.layers().enumerate() {
            let top = at >= self.trunk.len();
            let expected_inputs = if top {
                self.trunk.last()?.outputs
            } else {
                from
            };
            if layer.inputs != expected_inputs
                || layer.weights.len() != layer.inputs * layer.outputs
                || layer.biases.len() != layer.outputs
            {
                return Some(format!(
                    "layer {} does not fit the layers around it",
                    at + 1
                ));
            }
            if layer.parameters().any(|p| !p.is_finite()) {
                return Some(format!(
                    "layer {} holds a number that is not finite",
                    at + 1
                ));
            }
            from = layer.outputs;
        }
        (self.value.outputs != 1).then(|| "the value head must have one output".to_string())
    }
}

/// One sample's policy cross-entropy and value squared error.
fn sample_losses(pass: &Pass, sample: &Sample) -> (f32, f32) {
    let policy = -(0..pass.priors.len())
        .filter(|&m| sample.legal[m] && sample.policy[m] > 0.0)
        .map(|m| sample.policy[m] * pass.priors[m].max(1e-12).ln())
        .sum::<f32>();
    let value = (pass.value - sample.value).powi(2);
    (policy, value)
}

/// Softmax over the legal logits; 0 for the others. All illegal: all 0.
fn masked_softmax(logits: &[f32], legal: &[bool]) -> Vec<f32> {
    let max = logits
        .iter()
        .zip(legal)
        .filter(|(_, l)| **l)
        .map(|(x, _)| *x)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut priors: Vec<f32> = logits
        .iter()
        .zip(legal)
        .map(|(x, &l)| if l { (x - max).exp() } else { 0.0 })
        .collect();
    let sum: f32 = priors.iter().sum();
    if sum > 0.0 {
        for p in &mut priors {
            *p /= sum;
        }
    }
    priors
}

/// Adam (Kingma and Ba), with an L2 weight decay added to the gradient.
#[derive(Debug, Clone)]
pub struct Adam {
    /// The step size.
    pub learning_rate: f32,
    /// The L2 penalty's weight, added to every parameter's gradient times the parameter.
    pub weight_decay: f32,
    steps: i32,
    first: Vec<f32>,
    second: Vec<f32>,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// An optimiser with no steps taken yet.
    pub fn new(learning_rate: f32, weight_decay: f32) -> Self {
        Self {
            learning_rate,
            weight_decay,
            steps: 0,
            first: Vec::new(),
            second: Vec::new(),
        }
    }

    fn step(&mut self, net: &mut PolicyValueNet, grads: &[Dense]) {
        let count = net.parameter_count();
        if self.first.len() != count {
            self.first = vec![0.0; count];
            self.second = vec![0.0; count];
            self.steps = 0;
        }
        self.steps += 1;
        let correct1 = 1.0 - Self::BETA1.powi(self.steps);
        let correct2 = 1.0 - Self::BETA2.powi(self.steps);
        let gradients = grads.iter().flat_map(Dense::parameters);
        let parameters = net.layers_mut().flat_map(Dense::parameters_mut);
        let moments = self.first.iter_mut().zip(self.second.iter_mut());
        for ((parameter, gradient), (m, v)) in parameters.zip(gradients).zip(moments) {
            let g = gradient + self.weight_decay * *parameter;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            let step = (*m / correct1) / ((*v / correct2).sqrt() + Self::EPSILON);
            *parameter -= self.learning_rate * step;
        }
    }
}

// Values here are copied or exact in binary (0.25, 1.0), so equality is the check.
#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    fn sample(input: Vec<f32>, legal: Vec<bool>, policy: Vec<f32>, value: f32) -> Sample {
        Sample {
            input,
            legal,
            policy,
            value,
        }
    }

    #[test]
    fn priors_cover_the_legal_moves_only_and_the_value_stays_in_range() {
        let net = PolicyValueNet::new(4, &[8, 6], 3, 1);
        let eval = net.evaluate(&[1.0, 0.0, -1.0, 0.5], &[true, false, true]);
        assert_eq!(eval.priors[1], 0.0);
        assert!((eval.priors.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!((-1.0..=1.0).contains(&eval.value));
        assert_eq!(
            net.parameter_count(),
            4 * 8 + 8 + 8 * 6 + 6 + 6 * 3 + 3 + 6 + 1
        );
        assert_eq!(net.malformed(), None);
        assert_eq!(
            PolicyValueNet::new(4, &[8, 6], 3, 1),
            net,
            "the seed decides"
        );
    }

    /// The hand-written backward pass agrees with finite differences of the loss.
    #[test]
    fn the_gradient_matches_finite_differences() {
        let net = PolicyValueNet::new(3, &[5, 4], 3, 7);
        let batch = [
            sample(
                vec![0.5, -1.0, 0.25],
                vec![true, true, false],
                vec![0.75, 0.25, 0.0],
                0.5,
            ),
            sample(
                vec![-0.5, 0.3, 1.0],
                vec![true, true, true],
                vec![0.2, 0.3, 0.5],
                -1.0,
            ),
        ];
        let (grads, _) = net.gradient(&batch);
        let loss = |n: &PolicyValueNet| {
            let l = n.losses(&batch);
            f64::from(l.policy) + f64::from(l.value)
        };
        let analytic: Vec<f32> = grads.iter().flat_map(|g| g.parameters().copied()).collect();
        let count = net.parameter_count();
        assert_eq!(analytic.len(), count);
        let mut checked = 0;
        for at in (0..count).step_by(3) {
            let mut plus = net.clone();
            let mut minus = net.clone();
            let h = 1e-2;
            *plus
                .layers_mut()
                .flat_map(Dense::parameters_mut)
                .nth(at)
                .unwrap() += h;
            *minus
                .layers_mut()
                .flat_map(Dense::parameters_mut)
                .nth(at)
                .unwrap() -= h;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(h));
            let a = f64::from(analytic[at]);
            assert!(
                (numeric - a).abs() <= 2e-3 + 2e-2 * numeric.abs(),
                "parameter {at}: analytic {a}, numeric {numeric}"
            );
            checked += 1;
        }
        assert!(checked > 20);
    }

    #[test]
    fn training_fits_a_small_set() {
        let mut net = PolicyValueNet::new(2, &[16], 2, 3);
        let batch = [
            sample(vec![1.0, 0.0], vec![true, true], vec![1.0, 0.0], 1.0),
            sample(vec![0.0, 1.0], vec![true, true], vec![0.0, 1.0], -1.0),
        ];
        let mut adam = Adam::new(0.01, 0.0);
        let first = net.train(&batch, &mut adam);
        for _ in 0..500 {
            net.train(&batch, &mut adam);
        }
        let last = net.losses(&batch);
        assert!(last.policy < first.policy / 10.0, "{first:?} -> {last:?}");
        assert!(last.value < first.value / 10.0, "{first:?} -> {last:?}");
        let eval = net.evaluate(&[1.0, 0.0], &[true, true]);
        assert!(eval.priors[0] > 0.9 && eval.value > 0.8, "{eval:?}");
    }

    #[test]
    fn a_hand_edited_network_is_refused_with_its_reason() {
        let mut net = PolicyValueNet::new(3, &[4], 2, 1);
        net.trunk[0].weights[2] = f32::NAN;
        assert!(net.malformed().unwrap().contains("not finite"));
        let mut net = PolicyValueNet::new(3, &[4], 2, 1);
        net.policy.weights.pop();
        assert!(net.malformed().unwrap().contains("does not fit"));
        net.trunk.clear();
        assert!(net.malformed().unwrap().contains("no hidden layer"));
    }
}
