// The tournament pages' state: routes, the snapshot and its batches, the request that creates one.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatRoute, parseHash } from '../../../server/static/js/routes.js';
import { createTournamentRequest } from '../../../server/static/js/tournamentrequests.js';
import { boardResult, initialTournaments, isEntered, tournamentsReceived } from '../../../server/static/js/tournamentstate.js';

const ROUTE = { name: 'tournament', tournamentId: 't-1' };
const row = (name, points, withdrawn = false) => ({ rank: 1, name, kind: 'human', points, games: 0, wins: 0, draws: 0, losses: 0, tie_breaks: [0, 0], performance: null, withdrawn });
const snapshot = {
  type: 'tournament',
  seq: 3,
  tournament: { tournament_id: 't-1', name: 'Club', format: 'swiss', status: 'running', round: 1, rounds: 3, players: 2, standings: [row('ann', 0), row('bob', 0)], pairings: [{ round: 1, board: 1, black: 'ann', white: 'bob', room_id: 'r1', game_id: 'g1', score: null }], next_round_at: null },
};

test('the tournament routes round-trip through their hash', () => {
  for (const route of [{ name: 'tournaments' }, ROUTE]) assert.deepEqual(parseHash(formatRoute(route)), route);
  assert.equal(formatRoute(ROUTE), '#tournament/t-1');
});

test('a batch that follows the snapshot scores boards, pairs the next round and forgets the last', () => {
  const shown = tournamentsReceived(initialTournaments(), snapshot, ROUTE);
  assert.equal(shown.shown.seq, 3);
  const scored = tournamentsReceived(shown, { type: 'tournament_changes', tournament_id: 't-1', seq: 4, status: 'running', round: 2, players: 2, standings: [row('ann', 1), row('bob', 0)], pairings: [{ round: 1, board: 1, black: 'ann', white: 'bob', room_id: 'r1', game_id: 'g1', score: 1 }, { round: 2, board: 1, black: 'bob', white: 'ann', room_id: 'r2', game_id: 'g2', score: null }], next_round_at: null }, ROUTE);
  assert.deepEqual(scored.shown.pairings.map((board) => [board.round, board.score]), [[2, null]]);
  assert.deepEqual(scored.shown.standings.map((line) => line.points), [1, 0]);
  assert.equal(scored.rewatch, null);
});

test('a batch that skips a number asks for the tournament again; an old one changes nothing', () => {
  const shown = tournamentsReceived(initialTournaments(), snapshot, ROUTE);
  const batch = { type: 'tournament_changes', tournament_id: 't-1', status: 'running', round: 1, players: 2, standings: [], pairings: [], next_round_at: null };
  assert.equal(tournamentsReceived(shown, { ...batch, seq: 5 }, ROUTE).rewatch, 't-1');
  assert.equal(tournamentsReceived(shown, { ...batch, seq: 3 }, ROUTE), shown);
});

test('a snapshot of another tournament than the one shown is not shown', () => {
  assert.equal(tournamentsReceived(initialTournaments(), snapshot, { name: 'tournament', tournamentId: 't-2' }).shown, null);
});

test('who is entered, and how a board ended', () => {
  const tournament = { standings: [row('Ann', 0), row('bob', 0, true)] };
  assert.equal(isEntered(tournament, 'ann'), true);
  assert.equal(isEntered(tournament, 'bob'), false);
  assert.deepEqual([1, 0, 0.5, null].map((score) => boardResult({ white: 'x', score })), ['1-0', '0-1', '½-½', null]);
  assert.equal(boardResult({ white: null, score: 1 }), 'bye');
});

test('the form becomes a request with only its format\'s setting', () => {
  const form = { name: ' Club ', format: 'swiss', rounds: 5, double: true, minutes: 30, clockMinutes: 5, clockSeconds: 3, rated: true };
  assert.deepEqual(createTournamentRequest(form), { type: 'create_tournament', name: 'Club', format: 'swiss', clock: { initial_ms: 300_000, increment_ms: 3000 }, rated: true, rounds: 5 });
  assert.equal(createTournamentRequest({ ...form, format: 'round_robin' }).cycles, 2);
  assert.equal(createTournamentRequest({ ...form, format: 'arena' }).duration_s, 1800);
});
