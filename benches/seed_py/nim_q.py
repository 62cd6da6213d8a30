"""Seed 003's Q-learning Nim trainer, as the seed document gives it, with its progress
prints left out: the bar `benches/qlearning.rs` is measured against.

Usage: python3 benches/seed_py/nim_q.py [games] [repeats]
Prints the best wall-clock time of `repeats` runs of `train(games)`.
"""

import math
import random
import sys
import time


class Nim:
    def __init__(self):
        self.piles = [1, 3, 5, 7]
        self.player = 0
        self.winner = None

    @classmethod
    def available_actions(cls, piles):
        actions = set()
        for i, pile in enumerate(piles):
            for j in range(1, pile + 1):
                actions.add((i, j))
        return actions

    @classmethod
    def other_player(cls, player):
        return 0 if player == 1 else 1

    def switch_player(self):
        self.player = Nim.other_player(self.player)

    def move(self, action):
        pile, count = action
        if self.winner is not None:
            raise Exception("Game already won")
        elif pile < 0 or pile >= len(self.piles):
            raise Exception("Invalid pile")
        elif count < 1 or count > self.piles[pile]:
            raise Exception("Invalid number of objects")
        self.piles[pile] -= count
        self.switch_player()
        if all(pile == 0 for pile in self.piles):
            self.winner = self.player


class NimAI:
    def __init__(self, alpha=0.5, epsilon=0.1):
        self.q_value = {}
        self.alpha = alpha
        self.epsilon = epsilon

    def update(self, old_state, action, new_state, reward):
        old = self.get_q_value(old_state, action)
        best_future = self.best_future_reward(new_state)
        self.update_q_value(old_state, action, old, reward, best_future)

    def get_q_value(self, state, action):
        if (tuple(state), action) in self.q_value:
            return self.q_value[(tuple(state), action)]
        return 0

    def update_q_value(self, state, action, old_q, reward, future_rewards):
        new_value_estimate = reward + future_rewards
        self.q_value[(tuple(state), action)] = old_q + self.alpha * (new_value_estimate - old_q)

    def best_future_reward(self, state):
        possible_actions = Nim.available_actions(state)
        if len(possible_actions) == 0:
            return 0
        reward = -math.inf
        for action in possible_actions:
            cur_reward = self.get_q_value(state, action)
            if cur_reward > reward:
                reward = cur_reward
        return reward

    def choose_action(self, state, epsilon=True):
        possible_actions = Nim.available_actions(state)
        highest_q = -math.inf
        best_action = None
        for action in possible_actions:
            current_q = self.get_q_value(state, action)
            if current_q > highest_q:
                highest_q = current_q
                best_action = action
        if epsilon:
            action_weights = [self.epsilon / len(possible_actions) if action != best_action else
                              (1 - self.epsilon) for action in possible_actions]
            best_action = random.choices(list(possible_actions), weights=action_weights, k=1)[0]
        return best_action


def train(n):
    player = NimAI()
    for _ in range(n):
        game = Nim()
        last = {0: {"state": None, "action": None}, 1: {"state": None, "action": None}}
        while True:
            state = game.piles.copy()
            action = player.choose_action(game.piles)
            last[game.player]["state"] = state
            last[game.player]["action"] = action
            game.move(action)
            new_state = game.piles.copy()
            if game.winner is not None:
                player.update(state, action, new_state, -1)
                player.update(last[game.player]["state"], last[game.player]["action"], new_state, 1)
                break
            elif last[game.player]["state"] is not None:
                player.update(last[game.player]["state"], last[game.player]["action"], new_state, 0)
    return player


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    random.seed(1)
    best = math.inf
    for _ in range(repeats):
        started = time.perf_counter()
        ai = train(games)
        best = min(best, time.perf_counter() - started)
    print(f"seed Python: {games} games in {best * 1000:.0f} ms (best of {repeats}); "
          f"{len(ai.q_value)} Q entries")
