// seed_search.cpp -- reference benchmark of the seed's C++ tic-tac-toe search
// (seed 004, "A Hello-World Example of AI Game in C/C++", https://forejune.co/cuda/).
//
// This is a single-file transcription of the seed's MiniMaxT (minimax.h,
// minimax.cpp and minimaxab): same `Player board[9]`, same isWinning() loop
// over the 8 lines, same emptyCell(), same evaluation(), same recursion shape,
// move order 0..8 and strict > / < best-move updates, root window (-89, 89).
// Only two changes from the seed:
//   (a) instrumentation: a global node counter `g_nodes` is incremented once at
//       the top of every minimax()/minimaxab() call (every call = one node,
//       root included), and a leaf counter `g_leaves` is incremented when a call
//       returns a terminal evaluation.
//   (b) the seed's alpha-beta defect is fixed: the seed stores emptyCell()'s
//       bool in an int and tests `e < 0`, which is never true, so a full board
//       is never scored as a draw. Here the draw test is `!e` (i.e.
//       !emptyCell(), as minimax() does). emptyCell() is still called first,
//       unconditionally, as in the seed.
// printBoard()/resetBoard() and the interactive/GUI mains are left out; main()
// below is the benchmark driver.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

enum Player {EMPTY=0, X, O};

struct Node {
  int score;
  int move;
};

// (a) instrumentation
static unsigned long long g_nodes = 0;
static unsigned long long g_leaves = 0;

class MiniMaxT{
private:
  Player ai, opp;

public:
  MiniMaxT(Player ai, Player opp);
  Player board[9];
  bool isWinning(Player player);
  bool emptyCell();
  int evaluation(int depth, int state);
  Node minimax(bool max, int depth);
  Node minimaxab(bool max, int depth, int alpha, int beta);
};

MiniMaxT::MiniMaxT(Player ai0, Player opp0)
{
    ai = ai0;
    opp = opp0;
    for (int i = 0; i < 9; i++)
      board[i] = EMPTY;
}

bool MiniMaxT::isWinning(Player player)
{
    const int w[8][3] = {               //winning positions
        {0,1,2},{3,4,5},{6,7,8},        //rows
        {0,3,6},{1,4,7},{2,5,8},        //columns
        {0,4,8},{2,4,6}                 //diagonals
    };
    for (int i = 0; i < 8; i++){
      if (board[w[i][0]]==player && board[w[i][1]]==player
                      && board[w[i][2]]==player)
        return true;
     }

    return false;
}

bool MiniMaxT::emptyCell()
{
    for (int i = 0; i < 9; i++)
       if (board[i] == EMPTY)
         return true;

    return false;   //no more empty space
}

// evaluate score at a leaf
int MiniMaxT::evaluation(int depth, int state)
{
  if ( state == 0 )	//draw
    return 0;
  else if ( state == 1 )
    return (10 - depth);	//ai wins
  else
    return (depth - 10);	//opp wins

  return 0;
}

Node MiniMaxT::minimax(bool max, int depth)
{
  ++g_nodes;                    // (a)
  int state = 89;	//non-terminal state

  if ( isWinning( ai ) )
     state = 1;
  else if ( isWinning( opp ) )
     state = -1;
  else if ( !emptyCell() )
     state = 0;		//draw

  if ( state != 89 ) {	//end game
    ++g_leaves;                 // (a)
    int score = evaluation(depth, state);
    Node n = {score, -1};	//-1 signifies a leaf
    return n;
  }

  Node v;
  v.move = -1;

  if ( max ) {		//maximize score
    v.score = -89;
    for (int i = 0; i < 9; i++)
      if (board[i] == EMPTY) {
	 board[i] = ai;		//tentative move
	 Node maxNode = minimax(false, depth+1);  //next call is min
	 board[i] = EMPTY;	//restore board
	 int s = maxNode.score;
	 if ( s > v.score) {
	   v.score = s;
	   v.move = i;
	 }
      }
  } else {		//minimize score
    v.score = 89;
    for (int i = 0; i < 9; i++)
      if (board[i] == EMPTY) {
	 board[i] = opp;	//tentative move
	 Node minNode = minimax(true, depth+1);  //next call is max
	 int s = minNode.score;
	 if ( s < v.score) {
	   v.score = s;
	   v.move = i;
	 }
	 board[i] = EMPTY;	//restore board
      }
  }

  return v;
}

Node MiniMaxT::minimaxab(bool max, int depth, int alpha, int beta)
{
  ++g_nodes;                    // (a)
  int state = 89, e;

  e = emptyCell();
  if ( isWinning( ai ) )
     state = 1;
  else if ( isWinning( opp ) )
     state = -1;
  else if ( !e )                // (b) seed: `e < 0`, never true
     state = 0;		//draw

  if ( state != 89 ) {	//end game
    ++g_leaves;                 // (a)
    int score = evaluation(depth, state);
    Node n = {score, -1};	//-1 signifies a leaf
    return n;
  }

  Node v;
  v.move = -1;

  if ( max ) {		//maximize score
    v.score = -89;
    for (int i = 0; i < 9; i++)
      if (board[i] == EMPTY) {
	board[i] = ai;		//tentative move
	Node maxNode = minimaxab(false, depth+1, alpha, beta);  //next call is min
	board[i] = EMPTY;	//restore board
	int s = maxNode.score;
	if ( s > v.score) {
	  v.score = s;
	  v.move = i;
	}
	if (alpha < s)
	  alpha = s;
	if (alpha >= beta ) break;	//alpha-beta pruning
      }
  } else {		//minimize score
    v.score = 89;
    for (int i = 0; i < 9; i++)
      if (board[i] == EMPTY) {
	board[i] = opp;	//tentative move
	Node minNode = minimaxab(true, depth+1, alpha, beta);  //next call is min
	int s = minNode.score;
	if ( s < v.score) {
	  v.score = s;
	  v.move = i;
	}
	board[i] = EMPTY;	//restore board
	if (beta > s)
	  beta = s;
	if (beta <= alpha)	//alpha-beta pruning
	  break;
      }
  }

  return v;
}

// ---------------------------------------------------------------- benchmark

static volatile long long g_sink = 0;   // results are consumed here

struct Result {
  Node root;
  unsigned long long nodes, leaves;
  double mean_us, median_us, min_us;
};

template <class Search>
static Result bench(Search search, int reps)
{
  Result r{};
  // untimed warm-up search; also yields the reference node/leaf counts
  g_nodes = g_leaves = 0;
  r.root = search();
  r.nodes = g_nodes;
  r.leaves = g_leaves;
  g_sink += r.root.score * 16 + r.root.move;

  std::vector<double> us(reps);
  for (int k = 0; k < reps; k++) {
    g_nodes = g_leaves = 0;
    auto t0 = std::chrono::steady_clock::now();
    Node n = search();
    auto t1 = std::chrono::steady_clock::now();
    us[k] = std::chrono::duration<double, std::micro>(t1 - t0).count();
    g_sink += n.score * 16 + n.move + (long long)g_nodes;
    if (g_nodes != r.nodes || g_leaves != r.leaves ||
        n.score != r.root.score || n.move != r.root.move) {
      std::fprintf(stderr, "non-deterministic search result at rep %d\n", k);
      std::exit(2);
    }
  }
  double sum = 0;
  for (double x : us) sum += x;
  std::vector<double> s = us;
  std::sort(s.begin(), s.end());
  r.mean_us = sum / reps;
  r.median_us = (reps % 2) ? s[reps / 2] : 0.5 * (s[reps / 2 - 1] + s[reps / 2]);
  r.min_us = s[0];
  return r;
}

static void report(const char* name, const Result& r, int reps)
{
  std::printf("%-9s score=%d move=%d nodes=%llu leaves=%llu  "
              "mean=%.1f us  median=%.1f us  min=%.1f us  (R=%d)\n",
              name, r.root.score, r.root.move, r.nodes, r.leaves,
              r.mean_us, r.median_us, r.min_us, reps);
}

int main(int argc, char** argv)
{
  int reps = 200;
  if (argc > 1) {
    reps = std::atoi(argv[1]);
    if (reps < 1) { std::fprintf(stderr, "usage: %s [repetitions>=1]\n", argv[0]); return 1; }
  }

  MiniMaxT game(X, O);          // AI = X, empty board, X (max) to move

  std::printf("seed MiniMaxT, empty board, AI = X to move (max), per search:\n");
  Result mm = bench([&] { return game.minimax(true, 0); }, reps);
  report("minimax", mm, reps);
  Result ab = bench([&] { return game.minimaxab(true, 0, -89, 89); }, reps);
  report("alphabeta", ab, reps);

  int rc = 0;
  if (mm.nodes != 549946ULL || mm.root.score != 0) {
    std::fprintf(stderr, "CHECK FAILED: expected minimax nodes=549946 score=0\n");
    rc = 3;
  }
  if (ab.root.score != mm.root.score) {
    std::fprintf(stderr, "CHECK FAILED: alpha-beta score differs from minimax\n");
    rc = 3;
  }
  std::printf("check: minimax nodes == 549946 && score == 0 && ab score == minimax score: %s\n",
              rc ? "FAIL" : "ok");
  std::printf("(sink %lld)\n", (long long)g_sink);
  return rc;
}
