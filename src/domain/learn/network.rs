//! One dense sigmoid network, generic in its layer sizes, learning rate and batch size: the
//! multi-layer perceptron of the original Subtraction Nim program, and later the 3-pile Nim
//! network.
//!
//! Every layer has a bias unit: column 0 of a layer's weights multiplies a constant 1, as the
//! original program's `x0 = 1` input and hidden `h0 = 1` unit do. Squared error, plain gradient
//! descent.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What training minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// ½·Σ(y - t)², as in the original program: an output stuck confidently wrong learns slowly,
    /// because its gradient carries the sigmoid's slope y(1 - y).
    #[default]
    Squared,
    /// -Σ t·ln y + (1 - t)·ln(1 - y): the output gradient is y - t, so a confidently wrong
    /// bit is corrected as fast as a slightly wrong one.
    CrossEntropy,
}

/// One fully connected layer: `outputs` rows of `inputs + 1` weights (bias first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layer {
    /// Units feeding this layer (not counting the bias).
    pub inputs: usize,
    /// Units of this layer.
    pub outputs: usize,
    /// Row-major: the weights into unit `j` are `weights[j * (inputs + 1)..][..inputs + 1]`,
    /// the bias weight first.
    pub weights: Vec<f64>,
}

impl Layer {
    /// The weights into unit `unit`, bias first.
    pub fn incoming(&self, unit: usize) -> &[f64] {
        let width = self.inputs + 1;
        &self.weights[unit * width..(unit + 1) * width]
    }

    fn forward(&self, input: &[f64], output: &mut [f64]) {
        let width = self.inputs + 1;
        for (row, out) in self.weights.chunks_exact(width).zip(output.iter_mut()) {
            let mut sum = row[0];
            for (w, x) in row[1..].iter().zip(input) {
                sum += w * x;
            }
            *out = sigmoid(sum);
        }
    }
}

/// The activations of every layer for one input, input layer first: what the weights pane
/// shows while the AI moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Activations {
    /// `layers[0]` is the input, the last is the output.
    pub layers: Vec<Vec<f64>>,
}

impl Activations {
    /// The network's output.
    pub fn output(&self) -> &[f64] {
        self.layers.last().map_or(&[], Vec::as_slice)
    }
}

/// A dense sigmoid network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Network {
    /// The layers, input side first.
    pub layers: Vec<Layer>,
}

/// Scratch space reused across training samples, so an epoch does not allocate.
struct Scratch {
    activations: Vec<Vec<f64>>,
    deltas: Vec<Vec<f64>>,
    gradients: Vec<Vec<f64>>,
}

impl Network {
    /// A network with the given unit counts (inputs, hidden..., outputs), every weight drawn
    /// uniformly from `[-init_range, init_range]`.
    pub fn new(sizes: &[usize], init_range: f64, rng: &mut ChaCha8Rng) -> Self {
        let layers = sizes
            .windows(2)
            .map(|pair| {
                let (inputs, outputs) = (pair[0], pair[1]);
                let weights = (0..outputs * (inputs + 1))
                    .map(|_| rng.random_range(-init_range..=init_range))
                    .collect();
                Layer {
                    inputs,
                    outputs,
                    weights,
                }
            })
            .collect();
        Self { layers }
    }

    /// Why the layers cannot work together (a file edited by hand, say): weight counts that
    /// do not match the unit counts, layers that do not chain, weights that are not finite.
    pub fn malformed(&self) -> Option<String> {
        if self.layers.is_empty() {
            return Some("no layers".into());
        }
        for (l, layer) in self.layers.iter().enumerate() {
            if layer.inputs == 0 || layer.outputs == 0 {
                return Some(format!("layer {l} has no units"));
            }
            if layer.weights.len() != layer.outputs * (layer.inputs + 1) {
                return Some(format!(
                    "layer {l} has {} weights for {} x {} units",
                    layer.weights.len(),
                    layer.outputs,
                    layer.inputs + 1
                ));
            }
            if layer.weights.iter().any(|w| !w.is_finite()) {
                return Some(format!("layer {l} has a weight that is not a number"));
            }
        }
        self.layers
            .windows(2)
            .position(|pair| pair[0].outputs != pair[1].inputs)
            .map(|l| {
                format!(
                    "layer {l} has {} outputs, layer {} {} inputs",
                    self.layers[l].outputs,
                    l + 1,
                    self.layers[l + 1].inputs
                )
            })
    }

    /// Unit counts, inputs first.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.layers.iter().map(|l| l.inputs).collect();
        sizes.extend(self.layers.last().map(|l| l.outputs));
        sizes
    }

    /// Every layer's activations for `input`.
    pub fn activations(&self, input: &[f64]) -> Activations {
        let mut layers = vec![input.to_vec()];
        for layer in &self.layers {
            let mut output = vec![0.0; layer.outputs];
            layer.forward(layers.last().expect("the input is there"), &mut output);
            layers.push(output);
        }
        Activations { layers }
    }

    /// The output for `input`.
    pub fn output(&self, input: &[f64]) -> Vec<f64> {
        self.activations(input).layers.pop().unwrap_or_default()
    }

    fn scratch(&self) -> Scratch {
        let sizes = self.sizes();
        Scratch {
            activations: sizes.iter().map(|&n| vec![0.0; n]).collect(),
            deltas: sizes[1..].iter().map(|&n| vec![0.0; n]).collect(),
            gradients: self
                .layers
                .iter()
                .map(|l| vec![0.0; l.weights.len()])
                .collect(),
        }
    }

    /// One pass over `samples` (inputs, targets), in the given order, updating the weights after
    /// every `batch_size` samples (1: the original program's per-sample backpropagation) by the
    /// mean gradient times `learning_rate`. Returns the mean squared error of the pass (mean over
    /// samples and outputs), measured on each sample before its update.
    pub fn train_epoch(
        &mut self,
        samples: &[(Vec<f64>, Vec<f64>)],
        order: &[usize],
        learning_rate: f64,
        batch_size: usize,
        loss: Loss,
    ) -> f64 {
        let mut scratch = self.scratch();
        let mut squared_error = 0.0;
        if batch_size <= 1 {
            // Per-sample: apply each gradient at once, with no gradient buffer to fill.
            for &index in order {
                let (input, target) = &samples[index];
                squared_error += self.backward(input, target, loss, &mut scratch);
                self.apply(&scratch, learning_rate);
            }
        } else {
            for batch in order.chunks(batch_size) {
                scratch.gradients.iter_mut().for_each(|g| g.fill(0.0));
                for &index in batch {
                    let (input, target) = &samples[index];
                    squared_error += self.backward(input, target, loss, &mut scratch);
                    Self::accumulate(&self.layers, &mut scratch);
                }
                let step = learning_rate / batch.len() as f64;
                for (layer, gradient) in self.layers.iter_mut().zip(&scratch.gradients) {
                    for (w, g) in layer.weights.iter_mut().zip(gradient) {
                        *w -= step * g;
                    }
                }
            }
        }
        let outputs = self.layers.last().map_or(1, |l| l.outputs);
        squared_error / (order.len().max(1) * outputs) as f64
    }

    /// Forward and backward for one sample: leaves every layer's activations and error
    /// terms (deltas) in `scratch`; returns Σ(y - target)² (whatever the loss, so curves
    /// compare).
    fn backward(&self, input: &[f64], target: &[f64], loss: Loss, scratch: &mut Scratch) -> f64 {
        scratch.activations[0].copy_from_slice(input);
        for (l, layer) in self.layers.iter().enumerate() {
            let (before, after) = scratch.activations.split_at_mut(l + 1);
            layer.forward(&before[l], &mut after[0]);
        }
        let last = self.layers.len() - 1;
        let output = &scratch.activations[last + 1];
        let mut squared_error = 0.0;
        for ((delta, &y), &t) in scratch.deltas[last].iter_mut().zip(output).zip(target) {
            squared_error += (y - t) * (y - t);
            *delta = match loss {
                Loss::Squared => (y - t) * y * (1.0 - y),
                Loss::CrossEntropy => y - t,
            };
        }
        for l in (1..self.layers.len()).rev() {
            let layer = &self.layers[l];
            let width = layer.inputs + 1;
            let hidden = &scratch.activations[l];
            let (lower, upper) = scratch.deltas.split_at_mut(l);
            let below = &mut lower[l - 1];
            below.fill(0.0);
            for (unit, &delta) in upper[0].iter().enumerate() {
                let row = &layer.weights[unit * width + 1..(unit + 1) * width];
                for (d, w) in below.iter_mut().zip(row) {
                    *d += w * delta;
                }
            }
            for (d, &h) in below.iter_mut().zip(hidden) {
                *d *= h * (1.0 - h);
            }
        }
        squared_error
    }

    /// Steps every weight against its gradient for the sample `backward` left in `scratch`.
    fn apply(&mut self, scratch: &Scratch, learning_rate: f64) {
        for (l, layer) in self.layers.iter_mut().enumerate() {
            let width = layer.inputs + 1;
            let input = &scratch.activations[l];
            for (unit, &delta) in scratch.deltas[l].iter().enumerate() {
                let step = learning_rate * delta;
                let row = &mut layer.weights[unit * width..(unit + 1) * width];
                row[0] -= step;
                for (w, x) in row[1..].iter_mut().zip(input) {
                    *w -= step * x;
                }
            }
        }
    }

    /// Adds the gradient of the sample `backward` left in `scratch` to its gradient buffer.
    fn accumulate(layers: &[Layer], scratch: &mut Scratch) {
        for (l, layer) in layers.iter().enumerate() {
            let width = layer.inputs + 1;
            let input = &scratch.activations[l];
            let gradient = &mut scratch.gradients[l];
            for (unit, &delta) in scratch.deltas[l].iter().enumerate() {
                let row = &mut gradient[unit * width..(unit + 1) * width];
                row[0] += delta;
                for (g, x) in row[1..].iter_mut().zip(input) {
                    *g += delta * x;
                }
            }
        }
    }

    /// The gradient of the loss with respect to every weight, for tests.
    pub fn gradient(&self, input: &[f64], target: &[f64], loss: Loss) -> Vec<Vec<f64>> {
        let mut scratch = self.scratch();
        self.backward(input, target, loss, &mut scratch);
        Self::accumulate(&self.layers, &mut scratch);
        scratch.gradients
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn loss(network: &Network, input: &[f64], target: &[f64], kind: Loss) -> f64 {
        let y = network.output(input);
        match kind {
            Loss::Squared => {
                0.5 * y
                    .iter()
                    .zip(target)
                    .map(|(y, t)| (y - t) * (y - t))
                    .sum::<f64>()
            }
            Loss::CrossEntropy => -y
                .iter()
                .zip(target)
                .map(|(y, t)| t * y.ln() + (1.0 - t) * (1.0 - y).ln())
                .sum::<f64>(),
        }
    }

    #[test]
    fn backpropagation_matches_finite_differences() {
        for kind in [Loss::Squared, Loss::CrossEntropy] {
            check_gradient(kind);
        }
    }

    fn check_gradient(kind: Loss) {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let network = Network::new(&[3, 4, 3, 2], 1.0, &mut rng);
        let input = [0.3, -0.7, 1.0];
        let target = [1.0, 0.0];
        let analytic = network.gradient(&input, &target, kind);
        let h = 1e-6;
        for (l, layer) in network.layers.iter().enumerate() {
            #[allow(clippy::needless_range_loop)] // `w` indexes two networks and the gradient
            for w in 0..layer.weights.len() {
                let mut plus = network.clone();
                plus.layers[l].weights[w] += h;
                let mut minus = network.clone();
                minus.layers[l].weights[w] -= h;
                let numeric = (loss(&plus, &input, &target, kind)
                    - loss(&minus, &input, &target, kind))
                    / (2.0 * h);
                let diff = (numeric - analytic[l][w]).abs();
                assert!(
                    diff < 1e-7,
                    "layer {l} weight {w}: {numeric} vs {}",
                    analytic[l][w]
                );
            }
        }
    }

    #[test]
    fn training_lowers_the_error_on_xor() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut network = Network::new(&[2, 4, 1], 1.0, &mut rng);
        let samples: Vec<(Vec<f64>, Vec<f64>)> = [
            (0.0, 0.0, 0.0),
            (0.0, 1.0, 1.0),
            (1.0, 0.0, 1.0),
            (1.0, 1.0, 0.0),
        ]
        .iter()
        .map(|&(a, b, t)| (vec![a, b], vec![t]))
        .collect();
        let order = [0, 1, 2, 3];
        let first = network.train_epoch(&samples, &order, 0.5, 1, Loss::Squared);
        let mut last = first;
        for _ in 0..5000 {
            last = network.train_epoch(&samples, &order, 0.5, 1, Loss::Squared);
        }
        assert!(last < first / 10.0, "{first} -> {last}");
        for (input, target) in &samples {
            assert!((network.output(input)[0] - target[0]).abs() < 0.3);
        }
    }

    #[test]
    fn a_batch_applies_the_mean_gradient_once() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let network = Network::new(&[2, 3, 1], 1.0, &mut rng);
        let samples = vec![(vec![1.0, 0.0], vec![1.0]), (vec![0.0, 1.0], vec![0.0])];
        let mut batched = network.clone();
        batched.train_epoch(&samples, &[0, 1], 0.1, 2, Loss::Squared);
        let g0 = network.gradient(&samples[0].0, &samples[0].1, Loss::Squared);
        let g1 = network.gradient(&samples[1].0, &samples[1].1, Loss::Squared);
        for l in 0..network.layers.len() {
            for w in 0..network.layers[l].weights.len() {
                let expected = network.layers[l].weights[w] - 0.1 * (g0[l][w] + g1[l][w]) / 2.0;
                assert!((batched.layers[l].weights[w] - expected).abs() < 1e-12);
            }
        }
    }
}
