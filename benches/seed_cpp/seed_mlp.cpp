// seed_mlp.cpp -- reference benchmark of the seed's C++ MLP trainer for
// Subtraction Nim (seed 000, "Training a Neural Network to Play a NIM Game in
// C/C++", https://forejune.co/cuda/, /work/shared/seeds/000_dfd2c086eab4913e.txt).
//
// FROM THE SEED (transcribed, same logic):
//   * mlp.h: NMAX 127, n1 = 8 (7 input bits + bias x0 = 1), m1 = 15 (14 hidden
//     units + bias unit h[0]), K = 6 output bits; struct database; class MLP
//     with w[n1][m1], wo[m1][K], a, h, y, z, eta. saveWeights/readWeights are
//     left out (not needed for the benchmark).
//   * nimmlp.cpp: getScore (DP, taking the last block loses, 1 <= k <= n/2),
//     bestMove (first winning k, else `rand() % m + 1`), addDatabase,
//     int2binArray (LSB first), buildDatabase(NMAX) for n = 2..127, out2move
//     (threshold 0.2, bit i of the move <- out[i]; 0 -> 1), eta = 0.12,
//     4000 epochs, the "diff" check of DP move vs MLP move for every n.
//   * Minor: buildDatabase's VLA `int score[n] = {0}` is a std::vector here
//     (same contents); forward() takes `const double*` so training can read
//     the const database directly.
//
// TEXTBOOK RECONSTRUCTION (the seed does NOT include mlp.cpp):
//   * MLP(eta): srand() is NOT called inside; the driver calls srand(S) once
//     per run, before buildDatabase (so S fixes both the random labels of the
//     losing positions and the initial weights). Weights are then drawn
//     uniformly in [-0.5, 0.5] as rand() / (double) RAND_MAX - 0.5, first all
//     of w (i = 0..n1-1 outer, j = 0..m1-1 inner), then all of wo
//     (j = 0..m1-1 outer, k = 0..K-1 inner). w[i][0] is drawn but never used.
//   * g = logistic sigmoid 1 / (1 + exp(-x)); gd(x) = g(x) (1 - g(x)).
//   * forward(x): h[0] = 1; for j = 1..m1-1: a[j] = sum_i w[i][j] x[i],
//     h[j] = g(a[j]); for k: z[k] = sum_j wo[j][k] h[j], y[k] = g(z[k]).
//   * backward(yd, x): squared error E = 1/2 sum_k (y[k] - yd[k])^2;
//     dk = (y[k] - yd[k]) y[k] (1 - y[k]);
//     dj = h[j] (1 - h[j]) sum_k wo[j][k] dk for j >= 1 (uses wo BEFORE
//     its update); then wo[j][k] -= eta dk h[j] (all j, incl. bias unit) and
//     w[i][j] -= eta dj x[i] (j >= 1).
//   * train(db, epochs): per-sample SGD, samples in database order (n = 2..127)
//     every epoch, forward then backward. It also returns the mean squared
//     error of the last epoch: sum over samples and outputs of (y - yd)^2,
//     measured in the forward pass just before each sample's update, divided
//     by (samples * K).
//
// DRIVER (this benchmark, not the seed): main() [epochs=4000] [seed=1]
// [reps=5] [nseeds=10]. Phase 1: `reps` runs with seed S; each run does
// srand(S), buildDatabase, MLP(0.12), train (ONLY train is timed, with
// std::chrono::steady_clock), then the check. Prints time, MSE and the check
// per run, then mean and min time. Phase 2 (skipped if nseeds = 0): one run
// for each seed 1..nseeds, one line each. The check counts, over the 120
// winning positions (n in 2..127 except 3, 7, 15, 31, 63, 127), how many
// out2move(forward(n)) equal the DP move, and over all n in 2..127 how many
// decode to an illegal move (k > n/2). It also prints how many of the 126
// training labels (incl. the random ones at losing positions) are reproduced.

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace std;

// ---------------------------------------------------------------- mlp.h (seed)
#define NMAX 127
const int n1 = 8;   // number of inputs and bias
const int m1 = 15;  // number of hidden nodes and bias
const int K = 6;    // number of outputs
struct database {
  vector<array<double, n1>> inputs;
  vector<array<double, K>> labels;
};

class MLP {
 private:
  double w[n1][m1];
  double wo[m1][K];
  double a[m1];  // linear sum of products of inputs and weights
  double h[m1];  // hidden nodes h[j] = g(a[j])
  double y[K];   // predicted output
  double z[K];   // linear sum of products of weights and hidden nodes
  double eta;    // learning rate
 public:
  MLP(double learning_rate);
  double g(double x);
  double gd(double x);
  double* forward(const double x[]);
  void backward(const double yd[], const double x[]);
  double train(const database& db, int epochs);  // returns last-epoch MSE
};

// ------------------------------------------ mlp.cpp (textbook reconstruction)
MLP::MLP(double learning_rate) : eta(learning_rate) {
  for (int i = 0; i < n1; i++)
    for (int j = 0; j < m1; j++) w[i][j] = rand() / (double)RAND_MAX - 0.5;
  for (int j = 0; j < m1; j++)
    for (int k = 0; k < K; k++) wo[j][k] = rand() / (double)RAND_MAX - 0.5;
  for (int j = 0; j < m1; j++) a[j] = h[j] = 0.0;
  for (int k = 0; k < K; k++) y[k] = z[k] = 0.0;
}

double MLP::g(double x) { return 1.0 / (1.0 + exp(-x)); }

double MLP::gd(double x) {
  double s = g(x);
  return s * (1.0 - s);
}

double* MLP::forward(const double x[]) {
  h[0] = 1.0;  // bias unit
  for (int j = 1; j < m1; j++) {
    double s = 0.0;
    for (int i = 0; i < n1; i++) s += w[i][j] * x[i];
    a[j] = s;
    h[j] = g(s);
  }
  for (int k = 0; k < K; k++) {
    double s = 0.0;
    for (int j = 0; j < m1; j++) s += wo[j][k] * h[j];
    z[k] = s;
    y[k] = g(s);
  }
  return y;
}

void MLP::backward(const double yd[], const double x[]) {
  double dk[K], dj[m1];
  for (int k = 0; k < K; k++) dk[k] = (y[k] - yd[k]) * y[k] * (1.0 - y[k]);
  dj[0] = 0.0;
  for (int j = 1; j < m1; j++) {
    double s = 0.0;
    for (int k = 0; k < K; k++) s += wo[j][k] * dk[k];
    dj[j] = h[j] * (1.0 - h[j]) * s;
  }
  for (int j = 0; j < m1; j++)
    for (int k = 0; k < K; k++) wo[j][k] -= eta * dk[k] * h[j];
  for (int i = 0; i < n1; i++)
    for (int j = 1; j < m1; j++) w[i][j] -= eta * dj[j] * x[i];
}

double MLP::train(const database& db, int epochs) {
  size_t ns = db.inputs.size();
  double sse = 0.0;
  for (int e = 0; e < epochs; e++) {
    sse = 0.0;
    for (size_t s = 0; s < ns; s++) {
      const double* x = db.inputs[s].data();
      const double* yd = db.labels[s].data();
      double* out = forward(x);
      for (int k = 0; k < K; k++) {
        double d = out[k] - yd[k];
        sse += d * d;
      }
      backward(yd, x);
    }
  }
  return ns ? sse / (double)(ns * K) : 0.0;
}

// ---------------------------------------------------------- nimmlp.cpp (seed)
int getScore(int n, int S[]) {
  if (n == 1) S[n] = -1;  // got last block
  if (S[n] != 0) return S[n];
  int m = n / 2;
  for (int i = 1; i <= m; i++) {
    int nextN = n - i;
    if (getScore(nextN, S) == -1) {
      S[n] = 1;
      return S[n];
    }
  }
  S[n] = -1;
  return S[n];
}

int bestMove(int n, int score[]) {
  int m = n / 2;
  if (m < 1) m = 1;
  for (int i = 1; i <= m; i++) {
    if (getScore(n - i, score) == -1) return i;
  }
  return (rand() % m + 1);  // no winning move; pick any random legal move
}

void addDatabase(database& db, double in[], double targets[]) {
  array<double, n1> tempi;
  array<double, K> tempt;
  for (int i = 0; i < n1; i++) tempi[i] = in[i];
  db.inputs.push_back(tempi);
  for (int i = 0; i < K; i++) tempt[i] = targets[i];
  db.labels.push_back(tempt);
}

void int2binArray(int size, int value, double a[]) {
  int i = 0;
  while (i < size) {
    a[i] = (double)(value & 1);
    value >>= 1;
    i++;
  }
}

void buildDatabase(int n, database& db) {
  double inputs[n1], labels[K] = {0};
  vector<int> score(n + 1, 0);  // seed: int score[n] = {0};
  int move;
  inputs[0] = 1.0;  // bias
  for (int i = 2; i <= n; i++) {
    move = bestMove(i, score.data());
    int2binArray(n1 - 1, i, &inputs[1]);
    int2binArray(K, move, labels);
    addDatabase(db, inputs, labels);
  }
}

int out2move(const double out[K]) {
  double min = 0.2;
  int move = 0;
  for (int i = K - 1; i >= 0; i--) {
    move <<= 1;
    if (out[i] > min) move = move | 1;
  }
  if (move == 0) move = 1;
  return move;
}

// -------------------------------------------------- benchmark driver (ours)
struct RunResult {
  double ms;
  double mse;
  int win_correct;  // of the 120 winning positions
  int win_total;
  int illegal;      // n in 2..127 decoded to k > n/2
  int label_match;  // of the 126 training labels (incl. random ones)
};

static RunResult one_run(int epochs, unsigned seed) {
  RunResult r{};
  srand(seed);
  database db;
  buildDatabase(NMAX, db);
  MLP mlp(0.12);

  auto t0 = chrono::steady_clock::now();
  r.mse = mlp.train(db, epochs);
  auto t1 = chrono::steady_clock::now();
  r.ms = chrono::duration<double, milli>(t1 - t0).count();

  // The seed's check: DP move vs MLP move for every n = 2..127.
  int score[NMAX + 1] = {0};
  double ins[n1];
  ins[0] = 1.0;
  for (int i = 2; i <= NMAX; i++) {
    int2binArray(n1 - 1, i, &ins[1]);
    int neural = out2move(mlp.forward(ins));
    bool winning = getScore(i, score) == 1;
    if (winning) {
      r.win_total++;
      if (bestMove(i, score) == neural) r.win_correct++;
    }
    if (neural > i / 2) r.illegal++;
    int label = 0;
    const array<double, K>& lab = db.labels[i - 2];
    for (int k = K - 1; k >= 0; k--) label = (label << 1) | (lab[k] > 0.5 ? 1 : 0);
    if (label == neural) r.label_match++;
  }
  return r;
}

static void print_run(const char* tag, unsigned seed, const RunResult& r) {
  printf("%s seed %2u: train %8.2f ms  mse %.6f  winning correct %3d/%d  illegal %2d  "
         "train-label match %3d/126\n",
         tag, seed, r.ms, r.mse, r.win_correct, r.win_total, r.illegal, r.label_match);
}

int main(int argc, char** argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 4000;
  unsigned seed = argc > 2 ? (unsigned)strtoul(argv[2], nullptr, 10) : 1u;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  int nseeds = argc > 4 ? atoi(argv[4]) : 10;
  if (epochs < 0 || reps < 0 || nseeds < 0) {
    fprintf(stderr, "usage: %s [epochs=4000] [seed=1] [reps=5] [nseeds=10]\n", argv[0]);
    return 2;
  }

  printf("seed MLP (Subtraction Nim, n = 2..%d): %d-%d-%d, eta 0.12, %d epochs, "
         "per-sample SGD, threshold decoder 0.2\n",
         NMAX, n1, m1, K, epochs);

  if (reps > 0) {
    printf("== timing: %d runs, seed %u (only train() is timed) ==\n", reps, seed);
    double sum = 0.0, mn = 0.0;
    RunResult first{};
    bool same = true;
    for (int r = 0; r < reps; r++) {
      RunResult res = one_run(epochs, seed);
      print_run("run", seed, res);
      sum += res.ms;
      if (r == 0 || res.ms < mn) mn = res.ms;
      if (r == 0) first = res;
      else if (res.mse != first.mse || res.win_correct != first.win_correct ||
               res.illegal != first.illegal)
        same = false;
    }
    printf("train time over %d runs: mean %.2f ms, min %.2f ms (%d epochs x 126 samples)\n",
           reps, sum / reps, mn, epochs);
    if (!same) {
      fprintf(stderr, "error: runs with the same seed gave different results\n");
      return 1;
    }
  }

  if (nseeds > 0) {
    printf("== accuracy: seeds 1..%d, one run each ==\n", nseeds);
    int sum_c = 0, sum_i = 0;
    for (int s = 1; s <= nseeds; s++) {
      RunResult res = one_run(epochs, (unsigned)s);
      print_run("acc", (unsigned)s, res);
      sum_c += res.win_correct;
      sum_i += res.illegal;
    }
    printf("mean over %d seeds: winning correct %.1f/120, illegal %.1f\n", nseeds,
           (double)sum_c / nseeds, (double)sum_i / nseeds);
  }
  return 0;
}
