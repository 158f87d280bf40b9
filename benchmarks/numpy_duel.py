"""A numpy-vectorised Brutal melee duel: the speed baseline for the numba kernel.

The same duel as :mod:`brutal_sim.rulesets.brutal.kernel` (rules digest ``../shared/rules/brutal.md``, contract
``docs/engine.md``), written the way one writes it in plain numpy: all duels of a chunk advance
together, round by round and turn by turn; every step works on the index array of the duels it
concerns (selected with boolean masks), draws one batch of random numbers from a
``numpy.random.Generator`` and scatters its results back into per-fighter state arrays. There is
no Python loop over duels, only over rounds, turns, sides and the steps of an attack.

Random numbers are not the kernel's stream (xoshiro256** per duel); only the rules, hence the
statistics, are the same. ``python benchmarks/numpy_duel.py --check`` compares win rates and mean
rounds with the kernel for the three standard matchups and reports the speed of both.

Inputs are the kernel's: fighters ``int64[2, NF]`` (:func:`brutal_sim.rulesets.brutal.compile.compile_pair`),
options ``int64[NO]`` (:func:`brutal_sim.rulesets.brutal.options.compile_options`) and the zone table
(:func:`brutal_sim.rulesets.brutal.catalog.load_rules`). Output counters follow
:mod:`brutal_sim.rulesets.brutal.layout` (``C_*``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from brutal_sim.rulesets.brutal import layout as L, options as O

BASE = 8  # B-4.1 ordinary target
#: 2d6 as one uniform 0…35: SUM2[v] is the total, v == 35 the natural 6+6 (B-1.5)
SUM2 = (np.arange(36) // 6 + np.arange(36) % 6 + 2).astype(np.int64)
NAT66 = 35
ZONE_GROUP = np.array(L.ZONE_GROUP_OF, dtype=np.int64)
#: wound penalty (B-6.5) by the three bits ЛР, ТР, КР of the track: largest of 1, 2, 4 (B-1.6)
WOUND_PEN = np.array([0, 1, 2, 2, 4, 4, 4, 4], dtype=np.int64)
MAIN, OFF, FISTS = L.SLOT_MAIN, L.SLOT_OFF, L.SLOT_FISTS
DEGRADED, DESTROYED = L.BROKEN_DEGRADED, L.BROKEN_DESTROYED
CHUNK = 100_000


class _Chunk:
    """State of ``n`` duels played side by side; arrays are ``[side, duel]``."""

    def __init__(self, F, opts, zt, rng, cnt, n):
        self.F = F
        self.o = opts
        self.zt = np.asarray(zt, dtype=np.int64)
        self.rng = rng
        self.cnt = cnt
        self.n = n
        # per-side constants
        self.W = F[:, L.P_WEAPONS:L.P_WEAPONS + 3 * L.WN].reshape(2, 3, L.WN)  # [side, slot, field]
        arm = F[:, L.P_ARMOUR:L.P_ARMOUR + 12].reshape(2, 6, 2)
        self.prot = arm[:, :, 0].copy()                    # [side, zone]
        self.tough = arm[:, :, 1].copy()
        self.armoured = (self.prot > 0) | (self.tough > 0)
        self.marker_model = opts[O.O_ARMOUR_MODEL] != O.ARMOUR_PROTECTION_ONLY
        z = lambda: np.zeros((2, n), dtype=np.int64)  # noqa: E731
        self.track, self.tally, self.bleed = z(), z(), z()
        self.stun, self.daze, self.pstun, self.prone = z(), z(), z(), z()
        self.stance, self.noreact, self.tdef, self.fullpen = z(), z(), z(), z()
        self.oa, self.out, self.dead, self.inturn, self.surpr = z(), z(), z(), z(), z()
        self.held = np.zeros((2, 2, n), dtype=np.int64)    # [side, slot main/off, duel]
        self.broken = np.zeros((2, 2, n), dtype=np.int64)
        for i in range(2):
            for s in (MAIN, OFF):
                self.held[i, s] = self.W[i, s, L.W_PRESENT]

    # -- dice --------------------------------------------------------------------------------------
    def roll2(self, k):
        """k rolls of 2d6 as uniform 0…35 (use SUM2 / NAT66)."""
        return self.rng.integers(0, 36, k)

    def d2d6(self, k):
        return SUM2[self.rng.integers(0, 36, k)]

    def die(self, sides, k):
        """k rolls of a die with ``sides`` faces (scalar or array), 1…sides."""
        if np.ndim(sides) == 0:
            return self.rng.integers(1, int(sides) + 1, k)
        return (self.rng.random(k) * sides).astype(np.int64) + 1

    # -- derived values (side i scalar, idx array of duels) ------------------------------------
    def wound_pen(self, i, idx):
        nc = self.F[i, L.P_NCELLS]
        return WOUND_PEN[(self.track[i, idx] >> (nc - 4)) & 7]

    def stunned_or_dazed(self, i, idx):
        return (self.stun[i, idx] > 0) | (self.pstun[i, idx] > 0) | (self.daze[i, idx] > 0)

    def check_penalty(self, i, idx):
        """Other checks in a fight (athletics, mobility): wounds + stunned/dazed 2 (B-6.5, B-7.5)."""
        return self.wound_pen(i, idx) + 2 * self.stunned_or_dazed(i, idx)

    def active_penalty(self, i, idx):
        cond = np.where(self.prone[i, idx] > 0, 4, np.where(self.stunned_or_dazed(i, idx), 2, 0))
        return self.wound_pen(i, idx) + cond

    def reaction_mod(self, i, idx, parry):
        cond = np.where(self.stunned_or_dazed(i, idx), 2, 0)
        cond = np.where(self.prone[i, idx] > 0, np.maximum(cond, 4 if parry else 2), cond)
        full = (self.fullpen[i, idx] > 0) & (self.tdef[i, idx] == 0)
        return self.stance[i, idx] - cond - self.wound_pen(i, idx) - 2 * full

    def usable(self, i, idx, s):
        if self.W[i, s, L.W_PRESENT] == 0:
            return np.zeros(idx.size, dtype=bool)
        return (self.broken[i, s, idx] != DESTROYED) & (self.held[i, s, idx] > 0)

    def needs_ready(self, i, idx, s):
        if self.W[i, s, L.W_PRESENT] == 0:
            return np.zeros(idx.size, dtype=bool)
        return (self.held[i, s, idx] == 0) & (self.broken[i, s, idx] != DESTROYED)

    def attack_slot(self, i, idx):
        return np.where(self.usable(i, idx, MAIN), MAIN, np.where(self.usable(i, idx, OFF), OFF, FISTS))

    def degraded(self, i, idx, slot):
        s2 = np.minimum(slot, 1)
        return (slot != FISTS) & (self.broken[i, s2, idx] == DEGRADED)

    def parry_value(self, i, idx, slot):
        return self.W[i, slot, L.W_PARRY_BONUS] - 2 * self.degraded(i, idx, slot)

    def parry_slot(self, i, idx):
        """B-7.6: the usable weapon with the best parry value, main hand on ties; else fists."""
        um = self.usable(i, idx, MAIN)
        uo = self.usable(i, idx, OFF)
        best = np.where(um, MAIN, FISTS)
        if uo.any():
            better = uo & (~um | (self.parry_value(i, idx, np.full(idx.size, OFF))
                                  > self.parry_value(i, idx, np.full(idx.size, MAIN))))
            best = np.where(better, OFF, best)
        return best

    def parry_total(self, i, idx, ps):
        return (self.F[i, L.P_MELEE] + self.F[i, L.P_PARRY_MOD] + self.parry_value(i, idx, ps)
                + self.reaction_mod(i, idx, True))

    def dodge_total(self, i, idx):
        return self.F[i, L.P_DODGE] + self.reaction_mod(i, idx, False)

    def can_react(self, i, idx):
        return (self.out[i, idx] == 0) & (self.noreact[i, idx] == 0) & (self.surpr[i, idx] == 0)

    def either_out(self, idx):
        return (self.out[0, idx] != 0) | (self.out[1, idx] != 0)

    # -- wounds (B-5, B-6, B-7) ------------------------------------------------------------------
    def can_go_on(self, i, idx):
        """Whether i may take its next action: nobody is out and i was not dazed meanwhile (B-7.5)."""
        return ~self.either_out(idx) & (self.daze[i, idx] == 0)

    def knock_out(self, d, idx, cause):
        o = self.out[d, idx]
        self.out[d, idx] = np.where(o == 0, cause + 1, o)

    def record(self, d, idx, level):
        """B-6.2–6.4: light → leftmost free cell; heavy from ТР, critical from КР rightwards."""
        if idx.size == 0:
            return
        nc = int(self.F[d, L.P_NCELLS])
        start = np.where(level == L.LVL_LIGHT, 0, np.where(level == L.LVL_HEAVY, nc - 3, nc - 2))
        t = self.track[d, idx]
        t2 = t | ((np.int64(1) << start) - 1)
        nb = ~t2 & (t2 + 1)                     # lowest free cell at or after start
        t = np.where(nb < (np.int64(1) << nc), t | nb, t)
        self.track[d, idx] = t
        full = ((t >> (nc - 1)) & 1) != 0       # И filled (B-6.6)
        if full.any():
            self.knock_out(d, idx[full], L.CAUSE_TRACK_FULL)

    def light_damage(self, d, idx):
        """B-5.3: the tally past endurance becomes a light wound."""
        if idx.size == 0:
            return
        t = self.tally[d, idx] + 1
        over = t > self.F[d, L.P_ENDURANCE]
        self.tally[d, idx] = np.where(over, 0, t)
        if over.any():
            sub = idx[over]
            self.record(d, sub, np.full(sub.size, L.LVL_LIGHT))

    def toughness(self, d, idx, diff):
        tot = self.d2d6(idx.size) + self.F[d, L.P_TOUGHNESS] - 2 * (self.daze[d, idx] > 0)
        return tot >= diff

    def until_end_of_next_turn(self, d, idx, arr):
        if idx.size:
            turns = np.where(self.inturn[d, idx] > 0, 2, 1)
            arr[d, idx] = np.maximum(arr[d, idx], turns)

    def drop(self, d, idx, zone):
        """B-7.1: arm wound drops that hand's item; a two-handed weapon from either arm."""
        r = zone == L.ZONE_RARM
        self.held[d, MAIN, idx[r]] = 0
        left = idx[zone == L.ZONE_LARM]
        if self.W[d, MAIN, L.W_TWO_HANDED]:
            self.held[d, MAIN, left] = 0
        else:
            self.held[d, OFF, left] = 0

    def wound_effects(self, d, idx, level, zone):
        """B-7.1–7.3; the toughness check is rolled before the wound's own effects."""
        g = ZONE_GROUP[zone]
        lt, hv, cr = level == L.LVL_LIGHT, level == L.LVL_HEAVY, level == L.LVL_CRITICAL
        need = lt | hv | (cr & (g != 0))
        ok = np.ones(idx.size, dtype=bool)
        if need.any():
            diff = np.where(lt, 8, np.where(hv, 12, 14))
            ok[need] = self.toughness(d, idx[need], diff[need])
        fl = lt & ~ok                                   # a failed light wound
        arm, leg, torso, head = g == 2, g == 3, g == 1, g == 0
        drop = arm & (fl | hv | cr)
        if drop.any():
            self.drop(d, idx[drop], zone[drop])
        prone = leg & (fl | hv | cr)
        self.prone[d, idx[prone]] = 1
        stun = (fl & torso) | (hv & (arm | leg) & ~ok) | (hv & torso)
        self.until_end_of_next_turn(d, idx[stun], self.stun)
        daze = (fl & head) | (hv & torso & ~ok) | (hv & head) | (cr & torso)
        self.until_end_of_next_turn(d, idx[daze], self.daze)
        ko = (hv & head & ~ok) | (cr & head) | (cr & ~head & ~ok)
        if ko.any():
            self.knock_out(d, idx[ko], L.CAUSE_KNOCKED_OUT)

    def take_wound(self, d, idx, dmg, dtype, zone):
        """B-5–B-7 for one hit's final damage on each duel of ``idx``."""
        dl = self.F[d, L.P_DL0:L.P_DL0 + 4]
        level = 1 + (dmg > dl[0]) + (dmg > dl[1]) + (dmg > dl[2]) + (dmg > dl[3])
        level = np.where(dmg <= 0, L.LVL_NONE, level)
        c = self.cnt
        c[L.C_WOUNDS + d * 24:L.C_WOUNDS + d * 24 + 24] += np.bincount(level * 4 + ZONE_GROUP[zone],
                                                                       minlength=24)
        c[L.C_DAMAGE + d] += int(dmg.sum())
        mortal = level == L.LVL_MORTAL
        if mortal.any():
            sub = idx[mortal]
            died = ~self.toughness(d, sub, 12)
            self.dead[d, sub[died]] = 1
            self.knock_out(d, sub, L.CAUSE_MORTAL)
        rec = level - (dtype == L.DT_SHOCK)
        ld = (rec == L.LVL_LIGHT_DAMAGE) & ~mortal
        if ld.any():
            self.light_damage(d, idx[ld])
        rw = (rec >= L.LVL_LIGHT) & ~mortal
        if rw.any():
            self.record(d, idx[rw], rec[rw])
        eff = (level >= L.LVL_LIGHT) & (level <= L.LVL_CRITICAL)
        eff &= self.out[d, idx] == 0
        if not eff.any():
            return
        self.wound_effects(d, idx[eff], level[eff], zone[eff])
        bl = eff & (level >= L.LVL_HEAVY) & (dtype == L.DT_CUTTING)   # B-7.2, B-7.3
        self.bleed[d, idx[bl]] += 1
        self.pstun[d, idx[eff & (level == L.LVL_CRITICAL)]] = 1       # B-7.4 (shock too, B-5.2)

    # -- an attack (B-4) ---------------------------------------------------------------------------
    def hit(self, a, idx, slot, extra, crit, zone, reduce):
        """B-4 steps 3–6: zone, damage dice (floors, crit), armour, wound, for a's hits on d."""
        k = idx.size
        if k == 0:
            return
        d = 1 - a
        W = self.W[a]
        zone = np.array(zone, dtype=np.int64, copy=True)
        r = zone < 0
        if r.any():
            zone[r] = self.zt[self.rng.integers(0, self.zt.size, int(r.sum()))]
        deg = self.degraded(a, idx, slot)
        sides = W[slot, L.W_SIDES]
        if deg.any():  # B-4.4: one die step lower
            low = np.where(sides > 12, 12, np.where(sides > 4, sides - 2, np.where(sides > 2, sides - 1, sides)))
            sides = np.where(deg, low, sides)
        nd = W[slot, L.W_NDICE]
        floor = np.where(extra >= 4, sides // 2, 0)                       # B-4.11 confident hit
        if self.o[O.O_EXTRA_SUCCESSES_FLOOR_DAMAGE]:
            floor = np.maximum(floor, np.minimum(extra, sides))
        total = np.zeros(k, dtype=np.int64)
        for j in range(int(nd.max())):
            m = (nd > j) & ~crit
            if m.any():
                s = sides[m]
                v = self.die(s[0] if (s == s[0]).all() else s, int(m.sum()))
                total[m] += np.maximum(v, floor[m])
        crit_die = np.zeros(k, dtype=np.int64)
        if crit.any():                                                    # B-4.12
            total = np.where(crit, nd * sides, total)
            crit_die[crit] = self.rng.integers(1, 7, int(crit.sum()))
        dtype = W[slot, L.W_TYPE]
        dmg = total + W[slot, L.W_BONUS] + self.F[a, L.P_DAMAGE_MOD] + crit_die
        if self.o[O.O_MELEE_DAMAGE_ADDS_STRENGTH]:
            dmg = dmg + np.where(W[slot, L.W_UNARMED] == 0, self.F[a, L.P_STRENGTH], 0)
        pen = W[slot, L.W_PEN]
        pen = pen - (deg & (pen > 0))
        prot = self.prot[d][zone]
        tough = self.tough[d][zone]
        fire, blast = dtype == L.DT_FIRE, dtype == L.DT_BLAST
        if fire.any() or blast.any():
            prot = np.where(fire, prot * 2, np.where(blast, prot // 2, prot))
            tough = np.where(fire | blast, 0, tough)
        if self.marker_model:                                             # B-4.14
            mk = self.armoured[d][zone]
            if mk.any():
                marker = np.zeros(k, dtype=np.int64)
                marker[mk] = self.rng.integers(1, 7, int(mk.sum()))
                pierced = marker + pen - tough >= self.o[O.O_PIERCE_THRESHOLD]
                dtype = np.where(mk & ~pierced & (dtype == L.DT_CUTTING), L.DT_BLUNT, dtype)
                if self.o[O.O_ARMOUR_MODEL] == O.ARMOUR_MARKER_PIERCE_IGNORES:
                    prot = np.where(mk & pierced, 0, prot)
        final = np.maximum(dmg - prot - reduce, 0)
        self.take_wound(d, idx, final, dtype, zone)

    def choose_reaction(self, d, idx, kind):
        """B-4.8: R_PARRY / R_DODGE / R_NONE per duel (and the parry slot when computed)."""
        k = idx.size
        r = self.F[d, L.P_REACTION]
        can_parry = kind != L.K_KNOCKDOWN
        if r == L.R_NONE:
            return np.full(k, L.R_NONE)
        if r == L.R_PARRY:
            res = np.full(k, L.R_PARRY if can_parry else L.R_DODGE)
        elif r == L.R_DODGE or not can_parry:
            res = np.full(k, L.R_DODGE)
        else:
            ps = self.parry_slot(d, idx)
            better = self.parry_total(d, idx, ps) >= self.dodge_total(d, idx)
            res = np.where((ps != FISTS) & better, L.R_PARRY, L.R_DODGE)
        return np.where(self.can_react(d, idx), res, L.R_NONE)

    def knockdown(self, a, idx):
        """B-3.9 after a knock-down hit: opposed athletics, then the loser may fall."""
        d = 1 - a
        k = idx.size
        ra = self.d2d6(k) + self.F[a, L.P_ATHLETICS] - self.check_penalty(a, idx)
        rd = self.d2d6(k) + self.F[d, L.P_ATHLETICS] - self.check_penalty(d, idx)
        push = ra > rd
        if push.any():
            sub = idx[push]
            fall = self.d2d6(sub.size) + self.F[d, L.P_DODGE] - self.check_penalty(d, sub) < 12
            self.prone[d, sub[fall]] = 1
        self.prone[a, idx[rd - ra >= 4]] = 1

    def break_(self, i, idx, slot):
        """B-4.4: degraded, or destroyed (option / second break)."""
        if idx.size == 0:
            return
        self.cnt[L.C_BREAKS + i] += idx.size
        b = self.broken[i, slot, idx]
        destroy = (b == DEGRADED) | bool(self.o[O.O_BROKEN_WEAPON])
        self.broken[i, slot, idx] = np.where(destroy, DESTROYED, DEGRADED)

    def attack(self, a, idx, slot, mod, zone, kind):
        """One attack by a on d = 1 − a in every duel of ``idx`` (B-4).

        Returns a bool mask over ``idx``: the knock-down failed (miss or dodged).
        """
        k = idx.size
        d = 1 - a
        c = self.cnt
        oc = L.C_ATTACKS + a * 5
        failed = np.zeros(k, dtype=bool)
        if k == 0:
            return failed
        slot = np.broadcast_to(slot, (k,))
        zone = np.broadcast_to(zone, (k,))
        v = self.roll2(k)
        pen = self.active_penalty(a, idx)
        att = SUM2[v] + self.F[a, L.P_MELEE] + self.F[a, L.P_ATTACK_MOD] + mod - pen
        if not self.F[a, L.P_AMBIDEXTROUS]:
            att = att - 2 * (slot == OFF)
        att = att - 2 * self.degraded(a, idx, slot)
        crit = v == NAT66
        margin_max = bool(self.o[O.O_MARGIN_AGAINST])
        if self.o[O.O_ATTACK_NEEDS_BASE_DIFFICULTY]:                                   # B-4.3
            miss = att < BASE
            c[oc + L.OUT_MISS] += int(miss.sum())
            failed |= miss
            go = np.flatnonzero(~miss)
        else:
            go = np.arange(k)
        if go.size == 0:
            return failed
        react = self.choose_reaction(d, idx[go], kind)
        hit = np.zeros(k, dtype=bool)
        extra = np.zeros(k, dtype=np.int64)

        pm = go[react == L.R_PARRY]                                 # B-4.4
        if pm.size:
            pidx = idx[pm]
            ps = self.parry_slot(d, pidx)
            pv = self.roll2(pm.size)
            par = SUM2[pv] + self.parry_total(d, pidx, ps)
            at = att[pm]
            sa = slot[pm]
            a_un = self.W[a, sa, L.W_UNARMED] != 0
            d_un = ps == FISTS
            eq = at == par
            lt = at < par
            c[oc + L.OUT_HARD_BLOCK] += int(eq.sum())
            c[oc + L.OUT_PARRIED] += int(lt.sum())
            if eq.any():
                self._hard_block(a, pidx[eq], sa[eq], ps[eq], a_un[eq], d_un[eq])
            m = lt & d_un & ~a_un      # B-7.7: the arm takes the hit, less the parry's extra
            if m.any():
                self.hit(a, pidx[m], sa[m], np.zeros(int(m.sum()), np.int64), np.zeros(int(m.sum()), bool),
                         np.full(int(m.sum()), L.ZONE_RARM), (par - at)[m])
            m = lt & a_un & ~d_un      # B-7.7: the parrying weapon strikes the attacking arm
            if m.any():
                self.hit(d, pidx[m], ps[m], (par - at)[m], pv[m] == NAT66,
                         np.full(int(m.sum()), L.ZONE_RARM), 0)
            gt = at > par
            ex = at - par
            if margin_max:
                ex = np.where(par < BASE, at - BASE, ex)
            hit[pm[gt]] = True
            extra[pm[gt]] = ex[gt]

        dm = go[react == L.R_DODGE]                                 # B-4.5
        if dm.size:
            dod = self.d2d6(dm.size) + self.dodge_total(d, idx[dm])
            at = att[dm]
            dodged = at < dod
            c[oc + L.OUT_DODGED] += int(dodged.sum())
            failed[dm[dodged]] = True
            ex = at - dod
            if margin_max:
                ex = np.where(dod < BASE, at - BASE, ex)
            hit[dm[~dodged]] = True
            extra[dm[~dodged]] = ex[~dodged]

        nm = go[react == L.R_NONE]
        if nm.size:
            at = att[nm]
            miss = at < BASE
            c[oc + L.OUT_MISS] += int(miss.sum())
            failed[nm[miss]] = True
            hit[nm[~miss]] = True
            extra[nm[~miss]] = (at - BASE)[~miss]

        h = np.flatnonzero(hit)
        c[oc + L.OUT_HIT] += h.size
        if h.size:
            if kind == L.K_KNOCKDOWN:
                self.knockdown(a, idx[h])
            else:
                self.hit(a, idx[h], slot[h], np.maximum(extra[h], 0), crit[h], zone[h], 0)
        if kind != L.K_KNOCKDOWN:
            failed[:] = False
        return failed

    def _hard_block(self, a, idx, sa, ps, a_un, d_un):
        """B-4.4 / B-7.7: attack equal to the parry."""
        d = 1 - a
        both = a_un & d_un            # opposed athletics, the loser takes fists on an arm
        if both.any():
            sub = idx[both]
            ra = self.d2d6(sub.size) + self.F[a, L.P_ATHLETICS]
            rd = self.d2d6(sub.size) + self.F[d, L.P_ATHLETICS]
            ne = ra != rd
            arm = np.where(self.rng.integers(1, 3, sub.size) == 1, L.ZONE_LARM, L.ZONE_RARM)
            for hitter, m in ((a, ne & (ra > rd)), (d, ne & (ra < rd))):
                if m.any():
                    z = np.zeros(int(m.sum()), np.int64)
                    self.hit(hitter, sub[m], np.full(z.size, FISTS), z, z.astype(bool), arm[m], 0)
        m = d_un & ~a_un               # bare hands take the full hit on the right arm
        if m.any():
            z = np.zeros(int(m.sum()), np.int64)
            self.hit(a, idx[m], sa[m], z, z.astype(bool), np.full(z.size, L.ZONE_RARM), 0)
        m = a_un & ~d_un               # fists met a weapon: parried with 0 extra
        if m.any():
            z = np.zeros(int(m.sum()), np.int64)
            self.hit(d, idx[m], ps[m], z, z.astype(bool), np.full(z.size, L.ZONE_RARM), 0)
        m = ~a_un & ~d_un              # durability test, a loss by 6+ breaks
        if m.any():
            sub = idx[m]
            ra = self.d2d6(sub.size) + self.W[a, sa[m], L.W_DUR]
            rd = self.d2d6(sub.size) + self.W[d, ps[m], L.W_DUR]
            lose_a = rd - ra >= 6
            lose_d = ra - rd >= 6
            self.break_(a, sub[lose_a], sa[m][lose_a])
            self.break_(d, sub[lose_d], ps[m][lose_d])

    # -- turns (B-2, B-3) --------------------------------------------------------------------------
    def provoke(self, i, idx):
        """B-3.8: the enemy of i makes an opportunity attack at −2 where it can."""
        e = 1 - i
        if idx.size == 0:
            return
        m = self.can_react(e, idx) & (self.tdef[e, idx] == 0) & (self.oa[e, idx] > 0)
        sub = idx[m]
        if sub.size:
            self.oa[e, sub] -= 1
            self.attack(e, sub, self.attack_slot(e, sub), -2, -1, L.K_OPPORTUNITY)

    def feint(self, i, idx):
        """B-3.6: opposed melee without weapon modifiers; True where i wins."""
        e = 1 - i
        bi = self.F[i, L.P_MELEE] - self.active_penalty(i, idx)
        be = (self.F[e, L.P_MELEE] - self.wound_pen(e, idx)
              - 2 * self.stunned_or_dazed(e, idx))
        return self.d2d6(idx.size) + bi > self.d2d6(idx.size) + be

    def tactic_attack(self, i, idx, acts):
        """The tactic's action(s) with ``acts`` standard actions left; returns actions left."""
        F = self.F
        attack = F[i, L.P_T_ATTACK]
        k = idx.size
        if attack == L.TA_NONE:                                     # B-3.7 total defence
            m = acts == 2
            self.tdef[i, idx[m]] = 1
            self.stance[i, idx[m]] = F[i, L.P_T_STANCE]
            return np.where(m, 0, acts)
        e = 1 - i
        slot = self.attack_slot(i, idx)
        mod = np.zeros(k, dtype=np.int64)
        zone = np.full(k, -1, dtype=np.int64)
        kd = np.zeros(k, dtype=bool)
        feint = (acts == 2) if F[i, L.P_T_FEINT] else np.zeros(k, dtype=bool)   # B-3.6
        acts = acts - feint
        if F[i, L.P_T_FULL]:                                        # B-3.4 furious
            fur = acts == 2
            mod[fur] += F[i, L.P_T_MOD]
            self.noreact[i, idx[fur]] = F[i, L.P_T_NO_REACT]
            self.fullpen[i, idx[fur]] = F[i, L.P_T_FULL_PEN]
            acts = np.where(fur, 0, acts - 1)
        else:
            acts = acts - 1
            if attack == L.TA_KNOCKDOWN:                            # B-3.9
                kd = self.prone[e, idx] == 0
                slot = np.where(kd, FISTS, slot)
                mod += F[i, L.P_T_MOD] * kd
            else:                                                   # B-3.2, B-3.3, B-3.5
                mod += np.where(slot == FISTS, F[i, L.P_T_UNARMED_MOD], F[i, L.P_T_MOD])
                if F[i, L.P_T_STANCE]:
                    self.stance[i, idx] = F[i, L.P_T_STANCE]
                if F[i, L.P_AIM_ZONE] >= 0:
                    zone[:] = F[i, L.P_AIM_ZONE]
        paired = np.zeros(k, dtype=bool)
        if F[i, L.P_PAIRED]:                                        # B-7.6
            paired = ~kd & (slot == MAIN) & self.usable(i, idx, OFF)
            mod -= 4 * paired
        if feint.any():
            mod[feint] += self.feint(i, idx[feint])
        if kd.any():
            failed = np.zeros(k, dtype=bool)
            kk = np.flatnonzero(kd)
            failed[kk] = self.attack(i, idx[kk], slot[kk], mod[kk], zone[kk], L.K_KNOCKDOWN)
            nk = np.flatnonzero(~kd)
            self.attack(i, idx[nk], slot[nk], mod[nk], zone[nk], L.K_NORMAL)
            if failed.any():                                        # failed knock-down provokes
                self.provoke(i, idx[failed])
        else:
            self.attack(i, idx, slot, mod, zone, L.K_NORMAL)
        if paired.any():
            p = paired & ~self.either_out(idx) & self.usable(i, idx, OFF)
            if p.any():
                self.attack(i, idx[p], OFF, mod[p], zone[p], L.K_NORMAL)
        return acts

    def turn(self, i, idx):
        """One turn of fighter i in every duel of ``idx`` (docs/engine.md "A turn")."""
        for arr in (self.stance, self.noreact, self.tdef, self.fullpen):
            arr[i, idx] = 0
        bl = self.bleed[i, idx]
        if bl.any():                                                # B-7.5
            for j in range(int(bl.max())):
                self.light_damage(i, idx[bl > j])
            idx = idx[self.out[i, idx] == 0]
        self.inturn[i, idx] = 1
        act = idx[(self.daze[i, idx] == 0) & (self.surpr[i, idx] == 0)]
        if act.size:
            acts = np.full(act.size, 2, dtype=np.int64)
            while True:                                             # B-3.11
                m = (acts > 0) & (self.prone[i, act] != 0) & self.can_go_on(i, act)
                if not m.any():
                    break
                sub = act[m]
                self.prone[i, sub] = 2           # rising: the opportunity attack may fell it again
                self.provoke(i, sub)
                self.prone[i, sub[self.prone[i, sub] == 2]] = 0
                if self.o[O.O_STAND_UP_ACTION]:
                    acts[m] = 0
                    self.fullpen[i, sub] = 1
                else:
                    acts[m] -= 1
            m = (acts > 0) & self.needs_ready(i, act, MAIN)
            if m.any():                                             # B-3.10
                m &= self.can_go_on(i, act)
                self._ready(i, act[m], MAIN)
                acts[m] -= 1
            m = (acts > 0) & self.can_go_on(i, act)
            if m.any():
                acts[m] = self.tactic_attack(i, act[m], acts[m])
            m = (acts > 0) & self.needs_ready(i, act, OFF)
            if m.any():
                m &= self.can_go_on(i, act)
                self._ready(i, act[m], OFF)
        s = self.stun[i, idx]
        self.stun[i, idx] = np.maximum(s - 1, 0)
        s = self.daze[i, idx]
        self.daze[i, idx] = np.maximum(s - 1, 0)
        self.inturn[i, idx] = 0

    def _ready(self, i, sub, slot):
        """B-3.10: pick up a dropped item; the opportunity attack may knock it away again (−1 marks
        it as being picked up)."""
        self.held[i, slot, sub] = -1
        self.provoke(i, sub)
        self.held[i, slot, sub[self.held[i, slot, sub] == -1]] = 1

    def initiative(self):
        """B-2.2: 2d6 + resolve + talent; ties to the talent, then agility, else reroll."""
        F = self.F
        first = np.zeros(self.n, dtype=np.int64)
        pending = np.arange(self.n)
        while pending.size:
            ra = self.d2d6(pending.size) + F[0, L.P_RESOLVE] + F[0, L.P_INIT_MOD]
            rb = self.d2d6(pending.size) + F[1, L.P_RESOLVE] + F[1, L.P_INIT_MOD]
            first[pending[rb > ra]] = 1
            pending = pending[ra == rb]
            if F[0, L.P_INIT_TALENT] != F[1, L.P_INIT_TALENT]:
                first[pending] = 0 if F[0, L.P_INIT_TALENT] > F[1, L.P_INIT_TALENT] else 1
                break
            if F[0, L.P_AGILITY] != F[1, L.P_AGILITY]:
                first[pending] = 0 if F[0, L.P_AGILITY] > F[1, L.P_AGILITY] else 1
                break
        return first

    def play(self):
        """All duels of the chunk (B-2.9): rounds until one side is out, or the cap (draw)."""
        F, c = self.F, self.cnt
        first = self.initiative()
        surprise = int(self.o[O.O_SURPRISE])
        if surprise > 0:
            self.surpr[surprise - 1] = 1
        live = np.arange(self.n)
        for rnd in range(1, int(self.o[O.O_ROUND_CAP]) + 1):
            if live.size == 0:
                break
            self.oa[0, live] = F[0, L.P_OA_PER_ROUND]
            self.oa[1, live] = F[1, L.P_OA_PER_ROUND]
            for k in range(2):
                who = first[live] if k == 0 else 1 - first[live]
                for i in range(2):
                    g = live[who == i]
                    if g.size:
                        self.turn(i, g)
                o0 = self.out[0, live]
                done = (o0 != 0) | (self.out[1, live] != 0)
                if done.any():
                    dn = live[done]
                    loser = np.where(o0[done] != 0, 0, 1)
                    cause = self.out[loser, dn] - 1
                    c[L.C_WINS:L.C_WINS + 2] += np.bincount(1 - loser, minlength=2)
                    c[L.C_CAUSE:L.C_CAUSE + 2 * L.NCAUSES] += np.bincount(loser * L.NCAUSES + cause,
                                                                          minlength=2 * L.NCAUSES)
                    c[L.C_DEATHS:L.C_DEATHS + 2] += np.bincount(loser, weights=self.dead[loser, dn],
                                                                minlength=2).astype(np.int64)
                    c[L.C_ROUNDS + rnd] += dn.size
                    live = live[~done]
            if rnd == 1 and surprise > 0:
                self.surpr[:] = 0
        c[L.C_DRAWS] += live.size


def run_numpy_duels(F, opts, zt, n, seed, chunk=CHUNK):
    """Play ``n`` duels of F[0] against F[1] with numpy, ``chunk`` duels at a time.

    Returns a dict: ``counters`` (int64, layout ``C_*``), ``wins_a``, ``wins_b``, ``draws``,
    ``rounds`` (histogram, index = round in which a duel was decided), ``mean_rounds``, ``elapsed_s``.
    """
    F = np.asarray(F, dtype=np.int64)
    opts = np.asarray(opts, dtype=np.int64)
    cap = int(opts[O.O_ROUND_CAP])
    cnt = np.zeros(L.n_counters(cap), dtype=np.int64)
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    done = 0
    while done < n:
        size = min(chunk, n - done)
        _Chunk(F, opts, zt, rng, cnt, size).play()
        done += size
    elapsed = time.perf_counter() - t0
    return _summary(cnt, n, elapsed)


def _summary(cnt, n, elapsed=None):
    rounds = cnt[L.C_ROUNDS:L.C_ROUNDS + L.COUNTERS.round_cap_of(len(cnt)) + 1]
    decided = int(rounds.sum())
    r = np.arange(rounds.size)
    mean = float((rounds * r).sum() / decided) if decided else float("nan")
    var = float((rounds * r * r).sum() / decided - mean * mean) if decided else float("nan")
    return {"counters": cnt, "n": n, "wins_a": int(cnt[L.C_WINS]), "wins_b": int(cnt[L.C_WINS + 1]),
            "draws": int(cnt[L.C_DRAWS]), "rounds": rounds.copy(), "mean_rounds": mean,
            "var_rounds": var, "elapsed_s": elapsed}


# -- validation against the kernel -------------------------------------------------------------------

MATCHUPS = (("swordsman", "brute"), ("duelist", "knight"), ("militia", "brawler"))


#: rule paths the standard matchups do not reach: (a, b, options, overrides)
EXTRA_CASES = (
    ("dual_blades", "brawler", {}, {}),                                   # paired weapons
    ("dual_blades", "brawler", {}, {"reaction_b": "parry"}),              # bare-handed parry B-7.7
    ("brawler", "brawler", {}, {"reaction_a": "parry", "reaction_b": "parry"}),  # fists v fists
    ("brawler", "militia", {}, {"tactic_a": "knockdown"}),                # B-3.9
    ("swordsman", "knight", {}, {"tactic_a": "defensive", "tactic_b": "aimed:head"}),
    ("duelist", "brute", {}, {"tactic_a": "step", "reaction_a": "dodge", "reaction_b": "none"}),
    ("knight", "duelist", {"round_cap": "30"}, {"tactic_b": "total_defence"}),
    ("swordsman", "brute", {"surprise": "a", "stand_up_action": "full", "broken_weapon": "destroyed"}, {}),
    ("duelist", "knight", {"attack_needs_base_difficulty": "false", "margin_against": "max(base,reaction)",
                           "melee_damage_adds_strength": "true", "extra_successes_floor_damage": "false"}, {}),
    ("militia", "swordsman", {"armour_model": "marker_pierce_ignores_protection", "pierce_threshold": "5",
                              "surprise": "b"}, {}),
    ("knight", "brute", {"armour_model": "protection_only", "round_cap": "5"}, {}),
)


def _compiled(a, b, options=None, **overrides):
    from brutal_sim.api import prepare
    return prepare(a, b, options=options or {}, **overrides)[1].compiled


def check_extra(n_numpy=100_000, n_kernel=400_000, seed=77, tol=4.0):
    """Win/draw rates and mean rounds for :data:`EXTRA_CASES` (options and tactics off the
    standard matchups' paths). Returns True when every |z| < ``tol``."""
    from brutal_sim.run.engine import run_duel_counters

    ok = True
    for a, b, options, over in EXTRA_CASES:
        comp = _compiled(a, b, options, **over)
        kc, _ = run_duel_counters(comp, n_kernel, seed)
        ks = _summary(kc, n_kernel)
        ns = run_numpy_duels(comp.fighters, comp.options, comp.tables[0], n_numpy, seed)
        zs = []
        for key in ("wins_a", "wins_b", "draws"):
            pp = (ns[key] + ks[key]) / (n_numpy + n_kernel)
            se = math.sqrt(pp * (1 - pp) * (1 / n_numpy + 1 / n_kernel))
            zs.append((key, ns[key] / n_numpy, ks[key] / n_kernel, _z(ns[key] / n_numpy, ks[key] / n_kernel, se), True))
        d1, d2 = ns["wins_a"] + ns["wins_b"], ks["wins_a"] + ks["wins_b"]
        if d1 and d2:
            se = math.sqrt(ns["var_rounds"] / d1 + ks["var_rounds"] / d2)
            zs.append(("mean_rounds", ns["mean_rounds"], ks["mean_rounds"],
                       _z(ns["mean_rounds"], ks["mean_rounds"], se), True))
        # attack outcome shares: informational only, their z treats attacks as independent, but
        # attacks of one duel are correlated (wounds, broken weapons), which understates the SE
        # (up to ~4x in long duels; batch means agree where this naive z exceeds 4)
        for side in range(2):
            o = L.C_ATTACKS + side * 5
            t1, t2 = ns["counters"][o:o + 5].sum(), kc[o:o + 5].sum()
            for oi, oname in enumerate(L.OUTCOME_NAMES):
                if t1 and t2:
                    p1, p2 = ns["counters"][o + oi] / t1, kc[o + oi] / t2
                    pp = (ns["counters"][o + oi] + kc[o + oi]) / (t1 + t2)
                    se = math.sqrt(pp * (1 - pp) * (1 / t1 + 1 / t2))
                    zs.append((f"{'ab'[side]}_{oname}", p1, p2, _z(p1, p2, se), False))
        case_ok = all(abs(z) < tol for *_, z, gated in zs if gated)
        ok &= case_ok
        desc = f"{a} vs {b} {options or ''} {over or ''}".strip()
        worst = max((x for x in zs if x[4]), key=lambda x: abs(x[3]))
        worst_info = max((x for x in zs if not x[4]), key=lambda x: abs(x[3]))
        print(f"{'OK  ' if case_ok else 'FAIL'} {desc}\n      win a {zs[0][1]:.4f}/{zs[0][2]:.4f} (z {zs[0][3]:+.2f}), "
              f"draws {zs[2][1]:.4f}/{zs[2][2]:.4f}, worst |z| {abs(worst[3]):.2f} ({worst[0]}); "
              f"attack shares: naive |z| ≤ {abs(worst_info[3]):.2f} ({worst_info[0]})")
    print("\nEXTRA ALL OK" if ok else "\nEXTRA MISMATCH")
    return ok


def _z(x1, x2, se):
    return (x1 - x2) / se if se > 0 else 0.0


def check_against_kernel(n_numpy=200_000, n_kernel=1_000_000, seed=2024, tol=4.0, verbose=True):
    """Compare numpy and kernel win rates, draw rate and mean rounds for the standard matchups.

    Passes when every |z| < ``tol``. Also compares, for information, the other per-duel rates
    (defeat causes, deaths) and the per-attack outcome shares. Returns (ok, rows).
    """
    from brutal_sim.run.engine import run_duel_counters

    ok = True
    rows = []
    for a, b in MATCHUPS:
        comp = _compiled(a, b)
        run_duel_counters(comp, 1000, seed)  # JIT warm-up
        kc, kt = run_duel_counters(comp, n_kernel, seed + 1)
        k1c, k1t = run_duel_counters(comp, 200_000, seed + 2, threads=1)
        ks = _summary(kc, n_kernel, kt)
        ns = run_numpy_duels(comp.fighters, comp.options, comp.tables[0], n_numpy, seed)
        row = {"matchup": f"{a} vs {b}", "numpy_duels_per_s": n_numpy / ns["elapsed_s"],
               "kernel_duels_per_s_1thread": 200_000 / k1t,
               "kernel_duels_per_s_all": n_kernel / kt}
        checks = []
        for key in ("wins_a", "wins_b", "draws"):
            p1, p2 = ns[key] / n_numpy, ks[key] / n_kernel
            pp = (ns[key] + ks[key]) / (n_numpy + n_kernel)
            se = math.sqrt(pp * (1 - pp) * (1 / n_numpy + 1 / n_kernel))
            checks.append((key, p1, p2, _z(p1, p2, se), True))
        d1 = ns["wins_a"] + ns["wins_b"]
        d2 = ks["wins_a"] + ks["wins_b"]
        se = math.sqrt(ns["var_rounds"] / d1 + ks["var_rounds"] / d2)
        checks.append(("mean_rounds", ns["mean_rounds"], ks["mean_rounds"],
                       _z(ns["mean_rounds"], ks["mean_rounds"], se), True))
        # informational: causes and deaths per duel, attack outcome shares
        for side in range(2):
            for ci, cname in enumerate(L.CAUSE_NAMES[:3]):
                j = L.C_CAUSE + side * L.NCAUSES + ci
                p1, p2 = ns["counters"][j] / n_numpy, kc[j] / n_kernel
                pp = (ns["counters"][j] + kc[j]) / (n_numpy + n_kernel)
                se = math.sqrt(pp * (1 - pp) * (1 / n_numpy + 1 / n_kernel))
                checks.append((f"{'ab'[side]}_lost_{cname}", p1, p2, _z(p1, p2, se), False))
            j = L.C_DEATHS + side
            p1, p2 = ns["counters"][j] / n_numpy, kc[j] / n_kernel
            pp = (ns["counters"][j] + kc[j]) / (n_numpy + n_kernel)
            se = math.sqrt(pp * (1 - pp) * (1 / n_numpy + 1 / n_kernel))
            checks.append((f"{'ab'[side]}_deaths", p1, p2, _z(p1, p2, se), False))
            o = L.C_ATTACKS + side * 5
            t1, t2 = ns["counters"][o:o + 5].sum(), kc[o:o + 5].sum()
            checks.append((f"{'ab'[side]}_attacks_per_duel", t1 / n_numpy, t2 / n_kernel, float("nan"), False))
            for oi, oname in enumerate(L.OUTCOME_NAMES):
                p1, p2 = ns["counters"][o + oi] / max(t1, 1), kc[o + oi] / max(t2, 1)
                pp = (ns["counters"][o + oi] + kc[o + oi]) / max(t1 + t2, 1)
                se = math.sqrt(pp * (1 - pp) * (1 / max(t1, 1) + 1 / max(t2, 1)))
                checks.append((f"{'ab'[side]}_share_{oname}", p1, p2, _z(p1, p2, se), False))
            j = L.C_BREAKS + side
            checks.append((f"{'ab'[side]}_breaks_per_duel", ns["counters"][j] / n_numpy, kc[j] / n_kernel,
                           float("nan"), False))
            j = L.C_DAMAGE + side
            checks.append((f"{'ab'[side]}_damage_per_duel", ns["counters"][j] / n_numpy, kc[j] / n_kernel,
                           float("nan"), False))
        row["checks"] = checks
        gated_ok = all(abs(z) < tol for _, _, _, z, g in checks if g)
        row["ok"] = gated_ok
        ok &= gated_ok
        rows.append(row)
        if verbose:
            print(f"\n== {row['matchup']}: numpy {n_numpy:,} duels vs kernel {n_kernel:,} "
                  f"-> {'OK' if gated_ok else 'FAIL'}")
            print(f"   speed: numpy {row['numpy_duels_per_s']:,.0f} duels/s (1 thread); kernel "
                  f"{row['kernel_duels_per_s_1thread']:,.0f} duels/s (1 thread), "
                  f"{row['kernel_duels_per_s_all']:,.0f} duels/s (all threads)")
            print(f"   {'quantity':28s} {'numpy':>10s} {'kernel':>10s} {'z':>7s}   "
                  "(* gated; attack-share z is naive: attacks within a duel are correlated)")
            for name, v1, v2, z, g in checks:
                flag = "*" if g else " "
                warn = "  <-- |z| >= 4" if g and abs(z) >= tol else ""
                print(f" {flag} {name:28s} {v1:10.5f} {v2:10.5f} {z:7.2f}{warn}")
    if verbose:
        print("\nALL OK" if ok else "\nMISMATCH")
    return ok, rows


def bench(n_numpy=200_000, n_kernel=1_000_000, repeats=3, seed=3):
    """Duels per second, best of ``repeats``: numpy (single-threaded by nature) and the kernel on
    one thread, interleaved so that load from other processes hits both alike."""
    from brutal_sim.run.engine import run_duel_counters

    out = {}
    for a, b in MATCHUPS:
        comp = _compiled(a, b)
        run_duel_counters(comp, 1000, seed, threads=1)  # JIT warm-up
        best_np = best_k = 0.0
        for r in range(repeats):
            res = run_numpy_duels(comp.fighters, comp.options, comp.tables[0], n_numpy, seed + r)
            best_np = max(best_np, n_numpy / res["elapsed_s"])
            _, t = run_duel_counters(comp, n_kernel, seed + r, threads=1)
            best_k = max(best_k, n_kernel / t)
        out[f"{a} vs {b}"] = (best_np, best_k)
        print(f"{a + ' vs ' + b:22s} numpy {best_np:10,.0f} duels/s   kernel (1 thread) {best_k:10,.0f} duels/s"
              f"   ratio {best_k / best_np:5.1f}x")
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="compare with the numba kernel")
    p.add_argument("--check-extra", action="store_true",
                   help="also compare tactics and options the standard matchups do not use")
    p.add_argument("--bench", action="store_true", help="duels/s of numpy and the kernel (1 thread)")
    p.add_argument("-a", default="swordsman")
    p.add_argument("-b", default="brute")
    p.add_argument("-n", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.check or args.check_extra:
        ok = True
        if args.check:
            ok, _ = check_against_kernel()
        if args.check_extra:
            ok &= check_extra()
        return 0 if ok else 1
    if args.bench:
        bench()
        return 0
    comp = _compiled(args.a, args.b)
    r = run_numpy_duels(comp.fighters, comp.options, comp.tables[0], args.n, args.seed)
    print(f"{args.a} vs {args.b}: wins_a {r['wins_a'] / args.n:.4f}  wins_b {r['wins_b'] / args.n:.4f}  "
          f"draws {r['draws'] / args.n:.4f}  mean rounds {r['mean_rounds']:.3f}  "
          f"{args.n / r['elapsed_s']:,.0f} duels/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
