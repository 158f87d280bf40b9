"""A slow, readable, pure-Python reference of one Vereteno fight (melee, or at a distance with
moves and shots) and of one single attack, in the shape of a fight of N: the sides are lists of
fighters, each fighter knows its side and the row of its foe, every step reads the foe from there
and loops run over all fighters; a duel is the fight of one fighter a side.

It re-implements, independently of :mod:`brutal_sim.rulesets.vereteno.kernel`, the rules of
``docs/rules/vereteno.md`` (rule ids ``V-…``) with the readings the kernel documents
(``docs/reference-vereteno.md``), reading the validated models (fighters, trauma table) and the
resolved option values by name — not the compiled arrays — and it draws random numbers in the
kernel's order, so for the same ``(seed, duel index)`` both give the same counter row. No numba,
no numpy in the game logic. Random numbers: :class:`naive_rng.Xoshiro256StarStar`.

Draw order: initiative d20 per fighter in row order, a then b (the surprising side's two extra d20
right after its own); per round with ``init_roll = every_round`` again from round 2; tied totals →
a fresh d20 for each tied fighter in row order, again for those still tied, until they differ.
Per attack: the attacker's pool die by die (then its prayer's rerolled dice), the reaction's pool
(and its prayer's), the target's armour dice (armour part, then shield part), two d6 (tens, units)
per trauma; then the same for the defence's counter/traumas on the attacker. Per shot: the
shooter's pool (then its prayer's), a long burst's continuation dice, the target's armour, shield
and cover dice, two d6 per trauma.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from naive_rng import Xoshiro256StarStar

from brutal_sim.rulesets.vereteno import layout as L
from brutal_sim.rulesets.vereteno.model import DIAL_PROPERTIES, Fighter, Trauma

KIND_COST = {"quick": 1, "standard": 2, "power": 3}
KIND_DICE = {"quick": -2, "standard": 0, "power": 2}
UNARMED = {"modifier": 0, "initiative": 0, "damage": 1, "crit": 0, "light": False, "heavy": False,
           "two_handed": False, "piercing": False, "long": False}
SHOT_COST = {"hip": 1, "standard": 2, "aimed": 3, "burst": 3}
SHOT_DICE = {"hip": -2, "standard": 0, "aimed": 2, "burst": -2}
FALLBACK = {"burst": ["standard", "hip"], "aimed": ["standard", "hip"], "standard": ["hip"], "hip": []}
BAND_UP_TO = (1, 2, 20, 100, 1000)  # V-10.1
BAND_NAMES = ("point_blank", "close", "medium", "long", "extreme")
BAND_DICE = (2, 1, 0, -1, -2)  # V-11.10


@dataclass
class Fighting:
    """One fighter's model and its state during a fight: its row, its side (0 a, 1 b), the row of
    its foe, and the fight's order of going out (shared by all its fighters)."""

    f: Fighter
    row: int = 0
    side: int = 0
    foe: int = -1
    outs: list[Fighting] = field(default_factory=list)
    health: int = 0
    will: int = 0
    ap: int = 0
    ap_debt: int = 0
    init_base: int = 0
    init_bonus: int = 0
    prone: bool = False
    dropped: bool = False
    no_two_handed: bool = False
    pen_melee: int = 0
    pen_agil: int = 0
    bleed: int = 0
    dmg_per_turn: int = 0
    strain: int = 0
    armour: int = 0
    shield: int = 0
    out: str | None = None
    dead: bool = False
    stealth: str = "none"  # V-2.5: the pending stealth bonus of the surprising side
    immobilised: bool = False  # V-6.9
    pen_infl: int = 0  # V-6.4 (the battle cry)
    x: int = 0  # V-10.3: metres on the line
    cover: int = 0  # V-11.17
    gun_in_hand: bool = False  # V-10.9
    reload: bool = False  # V-11.14: a reload is due
    hip_chain: int = 0  # V-11.14 (b)
    braced: bool = False  # V-11.16
    ammo: int = 0  # V-11.14 (ammo = magazine)
    sector: int = 0  # V-11.13: AP set aside for sector shots
    halfspd: int = 0  # V-10.5: HALFSPD traumas
    pen_shoot: int = 0  # V-6.4: PEN(shoot)
    sight: int = 0  # V-11.18: 0 not checked this turn, 1 sees, 2 blind
    unready: bool = False  # V-10.9 (start_ready = no): the weapon in hand still to ready
    gun_down: bool = False  # V-10.9: the gun dropped (for bare hands)
    gun_knocked: bool = False  # V-8.4 DROP: the gun knocked out of hand, the melee weapon still stowed
    thrown_n: int = 0  # V-11.20: items of the supply thrown so far
    throw_ready: bool = False  # V-11.20: the next item to throw is in hand
    stowed: bool = False  # V-11.20 (throw_ready = quick): the melee weapon not in hand
    pen_str: int = 0  # V-6.4: PEN(str)
    lying: bool = False  # V-10.8: prone by choice (not knocked down)
    surprise: bool = False  # V-2.5: the surprise dice join its first initiative
    rank: int = 0  # V-14: its place in its side's line (docs/groups.md)
    away: bool = False  # V-14: still to arrive (arrive_round)
    harmed: int = 0  # blows above level none it took
    dealt: int = 0  # final damage dealt and taken (the group block)
    taken: int = 0
    commander: int = -1  # V-13.4: the row of its commander
    ord: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # V-13.4: shoot, melee, defend, dodge bonuses
    ord_until: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # their last round
    ordered_until: int = 0  # V-15.10: the last round of its own order
    inspired: bool = False  # V-13.7: an ally tried to inspire it this fight
    grapple: int = 0  # V-6.10: the partner's row + 1 when holding it, −(row + 1) when held, 0 in none

    def __post_init__(self) -> None:
        self.health, self.will, self.ap = self.f.health, self.f.will, self.f.action_points
        self.armour = self.f.armour.protection if self.f.armour else 0
        self.shield = self.f.shield.protection if self.f.shield else 0
        self.cover = self.f.cover
        self.gun_in_hand = self.f.gun is not None and self.f.tactic.shot != "throw" and (
            self.f.tactic.shot != "none" or self.f.tactic.overwatch)
        self.ammo = self.f.gun.magazine if self.f.gun else 0
        self.unready = (self.gun_in_hand or self.f.weapon is not None) and not self.f.fastest_hand
        self.lying = self.f.prone

    @property
    def weapon(self) -> dict[str, Any]:
        """The profile it fights with in melee: its weapon, or bare hands if none, dropped, banned
        (NO2H) or its gun is in hand (V-11.22)."""
        w = self.f.weapon
        if (w is None or self.dropped or self.gun_in_hand or self.gun_knocked or self.stowed
                or (self.no_two_handed and w.two_handed)):
            return UNARMED
        return {"modifier": w.modifier, "initiative": w.initiative, "damage": w.damage, "crit": w.crit,
                "light": "light" in w.properties, "heavy": "heavy" in w.properties, "two_handed": w.two_handed,
                "piercing": "armour_piercing" in w.properties, "long": "long" in w.properties}

    @property
    def armed(self) -> bool:
        return self.weapon is not UNARMED

    def go_out(self, cause: str) -> None:
        if self.out is None:
            self.out = cause
            self.outs.append(self)

    def lose_health(self, n: int) -> None:
        self.health -= n
        if self.health <= 0:
            self.go_out("health")


@dataclass
class Record:
    """What one duel (or attack) counted, by name."""

    winner: int | None = None  # the winning side, 0 or 1; None for a draw
    loser: int | None = None  # the losing side
    cause: str | None = None
    died: bool = False
    round: int = 0
    attacks: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])
    wounds: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])
    degraded: list[int] = field(default_factory=lambda: [0, 0])
    damage: list[int] = field(default_factory=lambda: [0, 0])
    last_harmed: int = 0  # blows above level none the losing side's last fighter out took
    fighters: list = field(default_factory=list)  # a fight of several: its Fighting, in row order

    def counter_row(self, round_cap: int) -> list[int]:
        """The record in the kernel's counter layout: the header; for a fight of several (``fighters``
        set) then the group block (docs/groups.md)."""
        c = L.COUNTERS
        row = [0] * c.size(round_cap)
        if self.winner is None:
            row[c.draws] = 1
        else:
            loser = self.loser
            row[c.wins + self.winner] = 1
            row[c.cause + loser * len(c.causes) + c.causes.index(self.cause)] = 1
            row[c.death + loser] = int(self.died)
            row[c.rounds + self.round] = 1
            row[c.one_blow + loser] = int(self.last_harmed == 1)
            row[c.rounds_a(round_cap) + self.round] = int(self.winner == 0)
            for lv, name in enumerate(c.levels):  # blows of each level the loser took, the last bin k or more
                row[c.loser_wounds_at(loser, lv, self.wounds[loser].get(name, 0))] = 1
        for side in range(len(self.attacks)):
            for name, n in self.attacks[side].items():
                row[c.attack + side * len(c.outcomes) + c.outcomes.index(name)] += n
            for name, n in self.wounds[side].items():
                row[c.wound + side * c.wound_size + c.levels.index(name)] += n
            row[c.special_at + side] = self.degraded[side]
            row[c.damage + side] = self.damage[side]
        if self.fighters:
            g = L.GROUP
            row += [0] * g.size(len(self.fighters))
            base = c.size(round_cap)
            for side in (0, 1):
                standing = sum(1 for s in self.fighters if s.side == side and s.out is None)
                row[base + g.survivors + (L.MAX_SIDE + 1) * side + standing] += 1
            for r, s in enumerate(self.fighters):
                at = base + g.fighters + g.per_fighter * r
                row[at + (g.out + c.causes.index(s.out) if s.out is not None else g.standing)] += 1
                row[at + g.dead] += int(s.dead)
                row[at + g.dealt] += s.dealt
                row[at + g.taken] += s.taken
        return row


class Game:
    """One fight of the sides ``lines`` (each a list of fighters, side a first) under resolved
    options (name → value); each fighter's foe is the first enemy in row order (in a duel, the
    other fighter)."""

    def __init__(self, lines: list[list[Fighter]], options: dict[str, Any], traumas: list[Trauma],
                 rng: Xoshiro256StarStar) -> None:
        outs: list[Fighting] = []
        self.fighters = [Fighting(f, side=k, rank=r, outs=outs) for k, line in enumerate(lines)
                         for r, f in enumerate(line)]
        for row, s in enumerate(self.fighters):
            s.row = row
            s.away = len(self.fighters) > 2 and s.f.arrive_round > 1
            s.commander = next((r for r, c in enumerate(self.fighters)
                                if c is not s and c.side == s.side and s.f.commander
                                and c.f.name.casefold() == s.f.commander.casefold()), -1)
        self.group = False  # a fight of several a side (the drivers' group flag): orders are given
        self.rnd = 0
        self.sides = [[s for s in self.fighters if s.side == k] for k in range(len(lines))]
        if len(self.fighters) == 2:  # a duel's two fighters are each other's foe; in a fight of several chosen
            for s in self.fighters:
                s.foe = next(e.row for e in self.fighters if e.side != s.side)
        self.outs = outs
        self.o = options
        self.traumas = traumas
        self.rng = rng
        self.rec = Record()
        self.tokens_used = [0, 0]  # V-3.17: Chernobog tokens the GM spent from each side's pool
        self.one = int(options["one_value"])
        for s in self.fighters:
            s.immobilised = options["immobilised"] in ("ab"[s.side], "both")
            if s.f.tactic.shot == "throw":  # V-11.20: the first item in hand
                s.throw_ready, s.stowed = True, options["throw_ready"] == "quick"
        self.place(int(options["start_distance"]))

    def place(self, d: int) -> None:
        """V-10.3: side a at 0 m, side b ``d`` m away."""
        for s in self.fighters:
            s.x = d if s.side == 1 else 0

    def foe(self, s: Fighting) -> Fighting:
        return self.fighters[s.foe]

    def decided(self) -> bool:
        """V-6.1: every fighter of a side is out."""
        return any(all(s.out is not None for s in side) for side in self.sides)

    # -- V-1 checks ------------------------------------------------------------------------------
    def d20(self) -> int:
        return self.rng.die(20)

    def value(self, face: int) -> int:
        return 2 if face == 20 else 1 if face >= 17 else self.one if face == 1 else 0

    def check(self, pool: int) -> int:
        if pool > 0:
            return sum(self.value(self.d20()) for _ in range(pool))
        mode = self.o["desperation"]
        if mode == "app":
            return 0
        if mode == "fvtt":
            faces = [self.d20() for _ in range(1 if pool == 0 else 2)]
            if all(x == 20 for x in faces):
                return 1
            return min(faces.count(20) - faces.count(1), 0)
        net = self.value(self.d20()) + self.value(self.d20())
        return 1 if net >= 2 else min(net, 0)

    def npc_pays(self, s: Fighting) -> bool:
        """V-3.17: a GM character (option ``npc``) under ``npc_reactions = tokens``."""
        return self.is_npc(s) and self.o["npc_reactions"] == "tokens"

    def is_npc(self, s: Fighting) -> bool:
        return self.o["npc"] in ("ab"[s.side], "both")

    def tokens_left(self, s: Fighting) -> int:
        return int(self.o["npc_tokens_" + "ab"[s.side]]) - self.tokens_used[s.side]

    def fighter_check(self, s: Fighting, pool: int) -> int:
        """V-1.6: a check of ``s``, prayed once if it failed (pool > 0) and ``s`` may pray."""
        mode = self.o["prayer"]
        if mode == "off" or pool <= 0:
            return self.check(pool)
        faces = [self.d20() for _ in range(pool)]
        net = sum(self.value(x) for x in faces)
        reroll = [x for x in faces if (x != 20 if mode == "yze" else self.value(x) <= 0)]
        if mode == "app":
            may = s.will >= 2
        else:
            may = not self.npc_pays(s) or self.tokens_left(s) >= 1
        if net > 0 or not reroll or not may:
            return net
        kept = sum(self.value(x) for x in faces) - sum(self.value(x) for x in reroll)
        new = [self.d20() for _ in reroll]
        if mode == "app":
            s.will -= 1 + new.count(1)
            if s.will <= 0:
                s.go_out("will")
        elif self.npc_pays(s):
            self.tokens_used[s.side] += 1
        return kept + sum(self.value(x) for x in new)

    # -- pools (V-3, V-4) --------------------------------------------------------------------------
    def attack_pool(self, a: Fighting, d: Fighting, kind: str) -> int:
        f = a.f
        return (f.attributes.physique + f.skills.melee + a.weapon["modifier"] + KIND_DICE[kind] - a.pen_melee
                + (2 if d.prone else 0) + (2 if d.immobilised else 0) + (3 if a.stealth == "dice" else 0)
                + (int(self.o["prone_melee"].replace("plus", "")) if d.lying and not d.prone else 0) + a.ord[1]
                + int(self.o["outnumber_dice"]) * sum(  # V-14.2: the other enemies fighting d within their reach
                    1 for j in self.fighters if j is not a and j.side != d.side and j.out is None and not j.away
                    and j.foe == d.row and abs(j.x - d.x) <= self.reach(j)))

    def defence_pool(self, d: Fighting) -> int:
        return d.f.attributes.physique + d.f.skills.melee + d.weapon["modifier"] - d.pen_melee + d.ord[2]

    def dodge_pool(self, a: Fighting, d: Fighting, kind: str) -> int:
        pool = d.f.attributes.agility + d.f.skills.nimbleness - a.weapon["modifier"] - d.pen_agil + d.ord[3]
        if self.o["dodge_modifier"] == "weapon_plus_attack_type":
            pool -= KIND_DICE[kind]
        return pool

    def reaction(self, a: Fighting, d: Fighting, kind: str) -> str:
        if d.ap < 1 or d.out is not None or d.f.reaction == "none":
            return "none"
        if d.grapple < 0 and self.o["grappled_reactions"] == "none":  # V-6.10
            return "none"
        if self.is_npc(d) and (self.o["npc_reactions"] == "none"
                               or (self.o["npc_reactions"] == "tokens" and self.tokens_left(d) < 1)):
            return "none"
        if d.gun_in_hand and self.o["gun_melee"] == "none":
            return "dodge"
        if d.f.reaction == "best":
            return "defend" if self.defence_pool(d) >= self.dodge_pool(a, d, kind) else "dodge"
        return d.f.reaction

    # -- effects ---------------------------------------------------------------------------------------
    def armour_roll(self, src: Fighting, tgt: Fighting) -> int:
        armour_dice = tgt.armour + (tgt.f.armour.quality if tgt.f.armour else 0)
        shield_dice = tgt.shield if self.o["shield"] == "adds_class_to_armour_pool" else 0
        if src.weapon["piercing"]:
            cut = int(self.o["armour_piercing_dice"])
            from_armour = min(cut, armour_dice)
            armour_dice -= from_armour
            shield_dice = max(shield_dice - (cut - from_armour), 0)
        faces = [self.d20() for _ in range(armour_dice + shield_dice)]
        successes = sum(self.value(x) for x in faces if x != 1)
        ones_armour = faces[:armour_dice].count(1)
        ones_shield = faces[armour_dice:].count(1)
        lost_a, lost_s = min(ones_armour, tgt.armour), min(ones_shield, tgt.shield)
        tgt.armour -= lost_a
        tgt.shield -= lost_s
        self.rec.degraded[tgt.side] += lost_a + lost_s
        if self.o["armour_ones"] == "net":
            return max(successes + (ones_armour + ones_shield) * self.one, 0)
        return successes

    def trauma(self, tgt: Fighting) -> None:
        t = self.traumas[(self.rng.die(6) - 1) * 6 + self.rng.die(6) - 1]
        if t.shock:
            now = min(t.shock, tgt.ap) if self.o["shock_timing"] == "now" else 0
            tgt.ap -= now
            tgt.ap_debt += t.shock - now
        if t.drop:  # V-8.4 DROP: what is in hand falls
            if tgt.gun_in_hand:
                tgt.gun_in_hand, tgt.gun_knocked = False, True
            elif tgt.stowed:
                tgt.throw_ready = False
            elif tgt.f.weapon is not None and not tgt.gun_knocked:
                tgt.dropped = True
        tgt.prone = tgt.prone or t.prone
        tgt.pen_melee += t.penalties.melee
        tgt.pen_agil += t.penalties.agil
        tgt.pen_infl += t.penalties.infl
        tgt.strain += int(t.dmgchk)
        tgt.bleed += t.bleed
        tgt.dmg_per_turn += int(t.dmg_turn)
        tgt.halfspd += int(t.halfspd)
        tgt.pen_shoot += t.penalties.shoot
        tgt.pen_str += t.penalties.str
        tgt.no_two_handed = tgt.no_two_handed or t.no2h
        if t.ko or t.para:
            tgt.go_out("trauma_out")
        if t.dead:
            tgt.dead = True
            tgt.go_out("death")

    def blow(self, src: Fighting, tgt: Fighting, damage: int, traumas: int, disarm: bool, will: int,
             shot: bool = False, armour: bool = True) -> bool:
        """Deliver a blow (or a shot's hit, a hit for 0 damage too; without ``armour`` no armour
        roll, V-3.13); True if the armour stopped all its damage."""
        was_out = tgt.out is not None
        if not armour:
            final = damage
        elif shot:
            final = max(damage - self.shot_armour_roll(src, tgt, self.piercing), 0) if damage > 0 else 0
        else:
            final = max(damage - self.armour_roll(src, tgt), 0) if damage > 0 else 0
        stopped = damage > 0 and final == 0
        ti = tgt.side
        self.rec.damage[ti] += final
        src.dealt += final
        tgt.taken += final
        tgt.lose_health(final)
        if not stopped:
            for _ in range(traumas):
                self.trauma(tgt)
            if disarm:
                tgt.dropped = True
        tgt.will -= will
        if tgt.will <= 0:
            tgt.go_out("will")
        if tgt.out is not None and not was_out:  # V-5.3, V-12.3: Will out even when the armour stopped it
            level = "out"
            if tgt.grapple:  # V-6.10: the grapple ends
                self.release(tgt)
        elif stopped:
            level = "none"
        elif traumas:
            level = "trauma"
        else:
            level = "wound" if final >= 2 else "scratch" if final == 1 else "none"
        self.rec.wounds[ti][level] = self.rec.wounds[ti].get(level, 0) + 1
        if level != "none":
            tgt.harmed += 1
        return stopped

    def attack(self, ai: int, kind: str, d: Fighting | None = None) -> int:
        """V-4: a melee attack of ``kind`` on ``d`` (by default its foe; the fighter stepping out of
        its reach, V-10.7); the extras it put into the grapple (V-4.5)."""
        a = self.fighters[ai]
        d = self.foe(a) if d is None else d
        react = self.reaction(a, d, kind)
        if react != "none":
            d.ap -= 1
            if self.npc_pays(d):
                self.tokens_used[d.side] += 1
        successes = self.fighter_check(a, self.attack_pool(a, d, kind))
        a.stealth = "none"
        if a.strain:
            a.lose_health(a.strain)
        r = 0
        if react != "none":
            r = self.fighter_check(d, self.defence_pool(d) if react == "defend" else self.dodge_pool(a, d, kind))
            if d.strain:
                d.lose_health(d.strain)
        s, rolled, counter, d_traumas = self.resolved(a, d, react, successes, r)
        counter_damage = d.weapon["damage"] if counter else 0  # the weapon it defended with
        grab = 0
        if s > 0:
            outcome = "hit"
            extra, crit, policy = s - 1, a.weapon["crit"], a.f.attack_spending
            traumas, disarm, will = 0, False, 0
            if policy == "grapple_first" and extra >= 1 and not a.grapple and not d.grapple:  # V-4.5
                grab = extra
            if policy in ("trauma_first", "suppress_covered") and crit:
                traumas, extra = extra // crit, extra % crit
            elif policy == "disarm_first" and crit and extra >= crit and d.armed:
                disarm, extra = True, extra - crit
            elif policy == "intimidate":
                will, extra = extra, 0
            elif grab:
                extra = 0
            if self.blow(a, d, a.weapon["damage"] + extra, traumas, disarm, will):
                outcome = "armour_stopped"
                grab = grab if self.o["grab_armour"] == "kept" else 0  # V-5.4
        else:
            outcome = "miss" if rolled == 0 else "defended" if react == "defend" else "dodged"
        self.rec.attacks[a.side][outcome] = self.rec.attacks[a.side].get(outcome, 0) + 1
        if counter or d_traumas:
            self.blow(d, a, counter_damage, d_traumas, False, 0)
        return grab

    def resolved(self, a: Fighting, d: Fighting, react: str, successes: int, r: int) -> tuple[int, int, bool, int]:
        """V-4.2–V-4.4: the successes left after the reaction, those rolled (≥ 0), the counter, the
        defence's traumas (and the defender's initiative bonus)."""
        s = max(successes, 0)
        rolled = s
        counter, d_traumas = False, 0
        if react == "defend":
            left = max(r, 0)
            if d.f.defence_spending == "counter_first" and left:
                counter, left = True, left - 1
            blocks = min(left, s)
            s, left = s - blocks, left - blocks
            cost = d.weapon["crit"] + 1
            if cost > 1:
                d_traumas, left = left // cost, left % cost
            if d.f.defence_spending == "block_first" and left:
                counter, left = True, left - 1
            d.init_bonus += 2 * left
        elif react == "dodge":
            s = self.dodged(d, s, r)
        return s, rolled, counter, d_traumas

    # -- V-4.5 grapple, V-6.10, V-3.12, V-3.13, V-3.11 ------------------------------------------------
    def strain(self, s: Fighting) -> None:
        if s.strain:
            s.lose_health(s.strain)

    def release(self, s: Fighting) -> None:
        p = self.fighters[abs(s.grapple) - 1]
        s.grapple = p.grapple = 0

    def in_grapple(self, s: Fighting) -> bool:
        """V-6.10: in a grapple whose partner is still in (a grapple with a fighter out ends)."""
        if not s.grapple:
            return False
        if self.fighters[abs(s.grapple) - 1].out is not None or s.out is not None:
            self.release(s)
            return False
        return True

    def grab(self, a: Fighting, d: Fighting, extra: int) -> bool:
        """V-4.5: the grab's opposed melee check (defence pools, +1 die per extra beyond the first);
        it fails only if ``d`` rolls more."""
        r = self.fighter_check(a, self.defence_pool(a) + extra - 1)
        self.strain(a)
        q = self.fighter_check(d, self.defence_pool(d))
        self.strain(d)
        if q > r or a.out is not None or d.out is not None:
            return False
        a.grapple, d.grapple = d.row + 1, -(a.row + 1)
        return True

    def break_free(self, s: Fighting) -> None:
        """V-3.12: 2 AP, an opposed melee check; ties by ``ties``."""
        p = self.fighters[abs(s.grapple) - 1]
        s.ap -= 2
        r = self.fighter_check(s, self.defence_pool(s))
        self.strain(s)
        q = self.fighter_check(p, self.defence_pool(p))
        self.strain(p)
        rerolls = 100 if self.o["ties"] == "reroll" else 0
        while r == q and rerolls > 0:
            r, q = self.fighter_check(s, self.defence_pool(s)), self.fighter_check(p, self.defence_pool(p))
            rerolls -= 1
        if r > q or (r == q and self.o["ties"] == "initiator_wins"):
            self.release(s)

    def choke(self, a: Fighting, d: Fighting) -> None:
        """V-3.13: 2 AP, melee + 2 with bare hands; 1 damage + 1 per extra, no armour roll."""
        a.ap -= 2
        react = self.reaction(a, d, "standard")
        if react != "none":
            d.ap -= 1
            if self.npc_pays(d):
                self.tokens_used[d.side] += 1
        sa = self.fighter_check(a, a.f.attributes.physique + a.f.skills.melee + 2 - a.pen_melee)
        self.strain(a)
        r = 0
        if react != "none":
            r = self.fighter_check(d, self.defence_pool(d) if react == "defend" else self.dodge_pool(a, d, "standard"))
            self.strain(d)
        s, rolled, counter, d_traumas = self.resolved(a, d, react, sa, r)
        counter_damage = d.weapon["damage"] if counter else 0
        if s > 0:
            outcome = "hit"
            damage, will = (1, s - 1) if a.f.attack_spending == "intimidate" else (s, 0)
            self.blow(a, d, damage, 0, False, will, armour=False)
        else:
            outcome = "miss" if rolled == 0 else "defended" if react == "defend" else "dodged"
        self.rec.attacks[a.side][outcome] = self.rec.attacks[a.side].get(outcome, 0) + 1
        if counter or d_traumas:
            self.blow(d, a, counter_damage, d_traumas, False, 0)

    def chokes(self, s: Fighting) -> None:
        while s.ap - 2 >= s.f.tactic.keep and self.in_grapple(s):
            self.choke(s, self.fighters[s.grapple - 1])
        self.in_grapple(s)

    def grapple_actions(self, s: Fighting) -> None:
        """V-6.10: held, break free while 2 AP and held (freed, the turn ends); holding, chokes."""
        if s.grapple < 0:
            while s.ap >= 2 and s.out is None and s.grapple:
                self.break_free(s)
            return
        self.chokes(s)

    def helpless(self, e: Fighting) -> bool:
        """V-6.6: out, not dead, not by Will (V-5.3)."""
        return e.out is not None and e.out != "will" and not e.dead

    def finish_off(self, s: Fighting) -> None:
        """V-3.11: 3 AP; a shooting check with the gun in hand, else melee (defence pool); success:
        3 × damage + extras through the armour, a trauma, dead."""
        e = self.foe(s)
        s.ap -= 3
        if s.gun_in_hand:
            g = s.f.gun
            r = self.fighter_check(s, s.f.attributes.agility + s.f.skills.shooting + g.modifier - s.pen_shoot)
            damage = g.damage
        else:
            r = self.fighter_check(s, self.defence_pool(s))
            damage = s.weapon["damage"]
            self.strain(s)
        outcome = "miss"
        if r >= 1 and s.out is None:
            outcome = "hit"
            self.blow(s, e, 3 * damage + r - 1, 0, False, 0)
            self.trauma(e)
            e.dead = True
        self.rec.attacks[s.side][outcome] = self.rec.attacks[s.side].get(outcome, 0) + 1

    def finishing_turn(self, s: Fighting) -> None:
        """V-3.11: the turn's start, moves to point blank, the finishing blow with 3 AP."""
        s.sector = 0
        if not self.start(s):
            return
        e = self.foe(s)
        while s.ap >= 1 and abs(s.x - e.x) > 1:
            self.step(s, stop=1)
        if s.ap >= 3 and abs(s.x - e.x) <= 1:
            self.finish_off(s)

    # -- V-2 rounds and turns ----------------------------------------------------------------------
    def refill(self, s: Fighting) -> None:
        s.ap = s.f.action_points - s.ap_debt
        s.ap_debt = max(-s.ap, 0)
        s.ap = max(s.ap, 0)

    def roll_initiative(self, first_round: bool) -> None:
        for s in self.fighters:
            if not s.away:
                self.initiative_base(s, first_round)

    def initiative_base(self, s: Fighting, first_round: bool) -> None:
        roll = self.d20()
        if first_round and s.surprise:
            extra = [self.d20(), self.d20()]
            roll = roll + sum(extra) if self.o["surprise_init"] == "add" else max([roll, *extra])
        w = s.weapon if not s.gun_in_hand else {"modifier": s.f.gun.modifier, "initiative": s.f.gun.initiative}
        term = w["modifier"] if self.o["init_weapon_term"] == "modifier" else w["initiative"]
        s.init_base = roll + term + s.f.skills.nimbleness + s.init_bonus
        s.init_bonus = 0

    def order(self) -> list[Fighting]:
        """V-2.4: the round's turn order: the higher base + bonuses first; a tied group rolls a
        fresh d20 each (in row order), the higher first, those tied again rolling again, the
        higher group settled first."""
        def settle(group: list[Fighting]) -> list[Fighting]:
            if len(group) == 1:
                return group
            rolls = [(self.d20(), s) for s in group]
            return [x for face in sorted({r for r, _ in rolls}, reverse=True)
                    for x in settle([s for r, s in rolls if r == face])]

        present = [s for s in self.fighters if not s.away]
        total = {s.row: s.init_base + s.init_bonus for s in present}
        return [x for t in sorted(set(total.values()), reverse=True)
                for x in settle([s for s in present if total[s.row] == t])] + [s for s in self.fighters if s.away]

    # -- V-14 fights of several a side ---------------------------------------------------------------
    def choose_foe(self, s: Fighting) -> None:
        """docs/groups.md: ``s``'s foe among the enemies in the fight (no limit): ``spread`` the fewest
        other engagers, ``weakest``/``focus`` the lowest of Health and Will, ``nearest`` none,
        ``shooters_first`` a gun in hand with no reload due, then the fewest engagers; ties: the current
        foe, the nearest in line, the lowest row; ``random`` keeps its foe while it may, else a die."""
        if self.o["finish_helpless"] == "on" and s.foe >= 0 and self.helpless(self.foe(s)):
            return  # V-3.11: it finishes its helpless foe first
        best, best_key, candidates = -1, None, []
        limit = int(self.o["melee_cap"])  # V-14.7
        for j, e in enumerate(self.fighters):
            if e.side == s.side or e.out is not None or e.away:
                continue
            others = sum(1 for x in self.fighters if x.out is None and x.foe == j) - (1 if j == s.foe else 0)
            if others >= limit:
                continue
            weak = 127 - max(min(e.health, e.will, 127), 0)
            shooter = e.gun_in_hand and not e.reload
            primary = {"spread": others, "weakest": -weak, "focus": -weak, "nearest": 0,
                       "shooters_first": (0 if shooter else 1, others), "random": 0}[s.f.targeting]
            candidates.append(j)
            key = (primary, j != s.foe, abs(e.rank - s.rank), j)
            if best_key is None or key < best_key:
                best, best_key = j, key
        if s.f.targeting == "random" and best >= 0 and best != s.foe:
            best = candidates[self.rng.die(len(candidates)) - 1]
        if best < 0 and self.o["finish_helpless"] == "on":  # no standing enemy with room: a helpless one
            helpless = [(abs(e.rank - s.rank), j) for j, e in enumerate(self.fighters)
                        if e.side != s.side and self.helpless(e)
                        and sum(1 for x in self.fighters if x.out is None and x.foe == j) - (j == s.foe) < limit]
            best = min(helpless)[1] if helpless else -1
        s.foe = best

    def lost_foe(self, s: Fighting) -> bool:
        """``s``'s turn stops acting: the fight is decided, or (several a side) ``s`` is out, or its foe
        is out and no other enemy is left (one is chosen at once)."""
        if self.decided():
            return True
        if len(self.fighters) == 2:
            return False
        if s.out is not None:
            return True
        if s.foe >= 0 and self.foe(s).out is None:
            return False
        self.choose_foe(s)
        return s.foe < 0 or self.foe(s).out is not None

    def lost_melee_foe(self, s: Fighting) -> bool:
        """:meth:`lost_foe`, or (several a side) the next foe beyond its melee reach."""
        if self.decided():
            return True
        return len(self.fighters) > 2 and (self.lost_foe(s) or not self.in_reach(s))

    def arrivals(self, rnd: int) -> None:
        """V-14: the fighters arriving in ``rnd`` join, then each rolls its initiative base (row order)."""
        joined = [s for s in self.fighters if s.away and s.f.arrive_round == rnd]
        for s in joined:
            s.away = False
        for s in joined:
            self.initiative_base(s, False)

    def plan(self, s: Fighting) -> str:
        """The tactic's kind, then cheaper kinds, then costlier ones: the first the weapon allows
        whose cost leaves the tactic's reserve."""
        order = ["quick", "standard", "power"]
        if s.f.tactic.attack == "none":
            return "none"
        at = order.index(s.f.tactic.attack)
        for kind in [*reversed(order[:at + 1]), *order[at + 1:]]:
            allowed = not (kind == "quick" and s.weapon["heavy"]) and \
                not (kind == "power" and (not s.armed or s.weapon["light"]))
            if allowed and s.ap - KIND_COST[kind] >= s.f.tactic.keep:
                return kind
        return "none"

    def turn(self, i: int) -> None:
        s = self.fighters[i]
        s.sector = 0
        for x in self.fighters:
            x.sight = 0
        if self.o["hip_chain"] == "per_turn":
            s.hip_chain = 0
        if s.grapple and self.in_grapple(s):  # V-6.10: refill, bleeding, then the grapple's actions
            if self.o["ap_refill"] == "turn_start":
                self.refill(s)
            hurt = s.bleed + s.dmg_per_turn
            if hurt:
                s.bleed = max(s.bleed - 1, 0)
                s.lose_health(hurt)
                if s.out is not None:
                    return
            self.grapple_actions(s)
            return
        if not self.start(s):
            return
        self.act(i)

    def start(self, s: Fighting) -> bool:
        """V-2.3, V-10.9, V-6.5, V-6.7, V-3.9, V-6.9: the turn's start; False if the turn ends there."""
        if self.o["ap_refill"] == "turn_start":
            self.refill(s)
        if not self.get_ready(s):
            return False
        hurt = s.bleed + s.dmg_per_turn
        if hurt:
            s.bleed = max(s.bleed - 1, 0)
            s.lose_health(hurt)
            if s.out is not None:
                return False
        if s.prone:
            if s.ap >= 1 and self.start_action(s, 1, lambda: True) is None:
                return False
            if s.ap < 1:
                return False
            s.ap -= 1
            s.prone = s.lying = False
        cost = 2 if self.o["pickup"] == "pickup_and_ready" else 1

        def can_pick_up() -> bool:
            return s.dropped and s.ap >= cost and not (s.no_two_handed and s.f.weapon.two_handed)

        if can_pick_up():
            if self.start_action(s, cost, can_pick_up) is None:
                return False
            if can_pick_up():
                s.ap -= cost
                s.dropped = False
        if s.gun_knocked and s.ap >= cost:  # V-3.9: the gun a DROP took, in hand again
            if self.start_action(s, cost, lambda: s.ap >= cost) is None:
                return False
            if s.ap >= cost:
                s.ap -= cost
                s.gun_knocked, s.gun_in_hand = False, True
        if s.immobilised and s.ap >= 2:  # V-6.9: a standard action's agility check
            if self.start_action(s, 2, lambda: s.immobilised and s.ap >= 2) is None:
                return False
        if s.immobilised and s.ap >= 2:
            s.ap -= 2
            freed = self.fighter_check(s, s.f.attributes.agility + s.f.skills.nimbleness - s.pen_agil) >= 1
            if s.strain:
                s.lose_health(s.strain)
            s.immobilised = not freed
            if s.out is not None:
                return False
        return True

    def act(self, i: int) -> None:
        """The turn after its start (V-15.1): shots, throws, closing in, melee."""
        s = self.fighters[i]
        if not self.ready_to_act(s):
            return
        if self.group and self.wants_order(s):  # V-15.10: the order first (drawing a sector shot)
            if self.sector_shot(s, 2) and self.wants_order(s):
                self.give_order(s)
            if self.decided() or s.out is not None:
                return
        if self.group and self.wants_inspire(s):  # V-13.7 (inspire = on)
            if self.sector_shot(s, 3) and self.wants_inspire(s):
                self.inspire(s)
            if self.decided() or s.out is not None:
                return
        t = s.f.tactic
        if s.gun_in_hand and self.shooter(i):
            return
        if s.f.tactic.shot == "throw" and self.thrower(i):
            return
        if not self.in_reach(s):  # V-15.4: a melee tactic closes in, then strikes with the AP left
            # V-15.2: it drew its melee weapon (not a gun a DROP took, picked up at the turn start)
            drew = s.f.gun is not None and (t.shot != "none" or t.overwatch) and not s.gun_knocked
            if t.move != "close_in" and not drew:
                return
            while s.ap >= 1 and not self.in_reach(s):
                self.move(s)
                if self.lost_foe(s):
                    return
            if not self.in_reach(s):
                return
        if s.stowed:  # V-10.9: a thrower readies its melee weapon
            if s.ap < 1:
                return
            s.ap -= 1
            s.stowed = False
        if s.stealth == "extra_attack":
            self.attack(i, "standard")
            if self.lost_melee_foe(s):
                return
        if s.f.tactic.battle_cry and s.ap - 2 >= s.f.tactic.keep:  # V-13.1: a threat or a taunt
            s.ap -= 2
            if s.f.taunt:
                self.taunt(s)
            else:
                self.threat(s)
            if self.lost_melee_foe(s):
                return
        while (kind := self.plan(s)) != "none":
            s.ap -= KIND_COST[kind]
            e = self.foe(s)
            grab = self.attack(i, kind)
            if grab > 0 and s.out is None and e.out is None and self.grab(s, e, grab):  # V-4.5, V-6.10
                self.chokes(s)
                return
            if self.lost_melee_foe(s):
                return

    # -- V-13 Will, orders ------------------------------------------------------------------------
    def will_damage(self, t: Fighting, r: int) -> None:
        if r >= 1:
            t.will -= r
            if t.will <= 0:
                t.go_out("will")

    def taunt(self, s: Fighting) -> None:
        """V-13.3: opposed Influence checks with the foe (its answer free); the loser takes the difference."""
        o = self.foe(s)
        r = self.fighter_check(s, s.f.attributes.empathy + s.f.skills.influence - s.pen_infl)
        q = self.fighter_check(o, o.f.attributes.empathy + o.f.skills.influence - o.pen_infl)
        if r > q:
            self.will_damage(o, r - q)
        elif q > r:
            self.will_damage(s, q - r)

    def threat(self, s: Fighting) -> None:
        """V-13.2: the foe, then (a fight of several) the nearest enemies in reach of the threat up to
        ``threat_targets``; −2 per extra target, −2 beyond medium (once, or per target); V-1.7 fear."""
        o = self.o
        targets = [self.foe(s)]
        if self.group:
            while len(targets) < s.f.threat_targets:
                left = [e for e in self.fighters if e.side != s.side and e.out is None and not e.away
                        and e not in targets
                        and (o["threat_hearing"] == "any" or self.band(abs(e.x - s.x)) <= 3)]
                if not left:
                    break
                targets.append(min(left, key=lambda e: (abs(e.x - s.x), e.row)))
        far = any(self.band(abs(e.x - s.x)) > 2 for e in targets)
        base = s.f.attributes.empathy + s.f.skills.influence - s.pen_infl - 2 * (len(targets) - 1)
        if far and o["threat_range"] == "once":
            base -= 2
        common = None
        for e in sorted(targets, key=lambda e: e.row):
            extra = 0
            if o["threat_resistances"] == "v1_7":
                if e.f.fear == "immune":
                    continue
                extra += {"normal": 0, "susceptible": 3, "vulnerable": 6}[e.f.fear]
            if o["threat_range"] == "per_target" and self.band(abs(e.x - s.x)) > 2:
                extra -= 2
            if extra == 0:
                if common is None:
                    common = self.fighter_check(s, base)
                r = common
            else:
                r = self.fighter_check(s, base + extra)
            self.will_damage(e, r)

    def listens(self, c: Fighting, x: Fighting) -> bool:
        """V-13.4: ``x`` in the fight follows ``c``'s orders (its subordinate, or ``c`` under order_self)."""
        return x.out is None and not x.away and (x.commander == c.row or (x is c and self.o["order_self"] == "on"))

    def wants_order(self, s: Fighting) -> bool:
        return (s.f.order_first and s.ordered_until < self.rnd and s.ap - 2 >= s.f.tactic.keep
                and any(self.listens(s, x) for x in self.fighters))

    def give_order(self, s: Fighting) -> None:
        """V-13.4: Эмпатия + Лидерство; each listener gains the successes it hears (V-13.5) for this
        round and the next on the checks the order names."""
        s.ap -= 2
        r = self.fighter_check(s, s.f.attributes.empathy + s.f.skills.leadership)
        if r < 1:
            return
        s.ordered_until = self.rnd + 1
        listeners = [x for x in self.fighters if self.listens(s, x)]
        order = s.f.order
        if order == "auto":
            order = "shooting" if 2 * sum(1 for x in listeners if x.gun_in_hand) > len(listeners) else "melee"
        cells = {"shooting": [0], "melee": [1] if self.o["melee_order"] == "attacks_only" else [1, 2],
                 "defend": [2], "nimbleness": [3]}[order]
        for x in listeners:
            if self.o["headsets"] == "on" and self.o["jammer"] == "off":
                h = r
            else:
                b = self.band(abs(x.x - s.x))
                h = r if b <= 2 else max(r - 2, 0) if b == 3 else 0
            if h < 1:
                continue
            for c in cells:
                if self.o["order_stack"] == "add" and x.ord_until[c] >= self.rnd:
                    x.ord[c] += h
                else:
                    x.ord[c] = h
                x.ord_until[c] = self.rnd + 1

    def inspire_target(self, s: Fighting) -> Fighting | None:
        """V-13.7: the ally (itself included) in the fight or out by Will, not yet inspired, who lost the
        most Will."""
        allies = [x for x in self.fighters if x.side == s.side and x.out in (None, "will") and not x.away
                  and not x.inspired and x.f.will - x.will > 0]
        return min(allies, key=lambda x: (-(x.f.will - x.will), x.row)) if allies else None

    def wants_inspire(self, s: Fighting) -> bool:
        return (self.o["inspire"] == "on" and s.f.inspire and s.ap - 3 >= s.f.tactic.keep
                and self.inspire_target(s) is not None)

    def inspire(self, s: Fighting) -> None:
        """V-13.7: 3 AP, Эмпатия + Лидерство (−2 on itself, −2 beyond close range); each success 1 Will, at
        most its Лидерство and the ally's full Will (from its Will, even below 0); once a fight per ally.
        An ally out by Will whose Will rises above 0 is back in the fight."""
        t = self.inspire_target(s)
        s.ap -= 3
        pool = s.f.attributes.empathy + s.f.skills.leadership - (2 if t is s else 0) \
            - (2 if self.band(abs(t.x - s.x)) > 1 else 0)
        t.inspired = True
        r = self.fighter_check(s, pool)
        if r >= 1:
            t.will = min(t.will + min(r, s.f.skills.leadership), t.f.will)
            if t.out is not None and t.will > 0:
                t.out = None
                t.outs.remove(t)

    def surprise(self, side: int) -> None:
        """V-2.5: every fighter of ``side`` surprised its foes."""
        for s in self.sides[side]:
            s.surprise, s.stealth = True, self.o["stealth_attack"]

    def stealth_approach(self) -> bool:
        """V-10.10: the stealth check (plain ≥ 1, or opposed: more than the target's perception)."""
        side = "ab".index(self.o["stealth"])
        s = self.sides[side][0]  # the side's first fighter
        t = self.sides[1 - side][0]  # the other side's first (in a duel its foe)
        d = int(self.o["stealth_distance"])
        pool = (s.f.attributes.agility + s.f.skills.stealth + (-2, -1, 0, 2, 4)[self.band(d)]
                + (2 if self.o["stealth_ambush"] == "on" else 0))
        r = self.fighter_check(s, pool)
        if self.o["stealth_check"] == "opposed":
            perception = t.f.attributes.intellect + t.f.skills.perception
            q = self.fighter_check(t, perception)
            rerolls = 100 if self.o["ties"] == "reroll" else 0  # V-1.5: both roll again on a tie
            while r == q and rerolls > 0:
                r, q = self.fighter_check(s, pool), self.fighter_check(t, perception)
                rerolls -= 1
            ok = r > q or (r == q and self.o["ties"] == "initiator_wins")
        else:
            ok = r >= 1
        if ok:
            self.surprise(side)
        if ok or self.o["stealth_fail"] == "declared_distance":
            self.place(d)
        return ok

    def duel(self) -> Record:
        if self.o["stealth"] != "none":
            self.stealth_approach()
        elif self.o["surprise"] != "none":
            self.surprise("ab".index(self.o["surprise"]))
        self.roll_initiative(True)
        several = len(self.fighters) > 2
        for rnd in range(1, int(self.o["round_cap"]) + 1):
            if self.group:
                self.rnd = rnd
                for x in self.fighters:  # V-13.4: order bonuses past their last round lapse
                    for c in range(4):
                        if x.ord_until[c] < rnd:
                            x.ord[c] = 0
            if rnd > 1 and several:
                self.arrivals(rnd)
            if rnd > 1 and self.o["init_roll"] == "every_round":
                self.roll_initiative(False)
            order = self.order()
            if rnd == 1 and several:
                for s in order:
                    if not s.away:
                        self.choose_foe(s)
            if self.o["ap_refill"] == "round_start":
                for s in self.fighters:
                    self.refill(s)
            if self.o["overwatch_expiry"] == "refill":
                for s in self.fighters:
                    s.sector = 0
            for s in order:
                if s.out is not None:
                    continue
                if several:
                    if s.away:
                        continue
                    self.choose_foe(s)
                    if s.foe < 0:
                        continue
                    if self.foe(s).out is not None:  # finish_helpless = on (V-3.11)
                        self.finishing_turn(s)
                        if self.decided():
                            return self.finish(rnd)
                        continue
                self.turn(s.row)
                if self.decided():
                    return self.finish(rnd)
        return self.rec

    def finish(self, rnd: int) -> Record:
        """V-6.1: every side out at once is a draw; else the first side all out (side a checked
        first) lost, and its last fighter out is the deciding takedown."""
        beaten = [all(s.out is not None for s in side) for side in self.sides]
        if all(beaten):
            return self.rec
        loser = beaten.index(True)
        last = [s for s in self.outs if s.side == loser][-1]
        self.rec.loser, self.rec.winner = loser, beaten.index(False)
        self.rec.cause, self.rec.died, self.rec.round = last.out, last.dead, rnd
        self.rec.last_harmed = last.harmed
        return self.rec

    def get_ready(self, s: Fighting) -> bool:
        """V-10.9: readying the item in hand in the first turn (``start_ready = no``, 1 AP), after the
        foe's sector shot (V-11.13, ``start_action``); False when the fight is decided or ``s`` out."""
        if s.unready and self.o["start_ready"] == "no" and s.ap >= 1:  # V-10.9: readying in the first turn
            if self.start_action(s, 1, lambda: s.unready and s.ap >= 1) is None:
                return False
            if s.unready and s.ap >= 1:
                s.ap -= 1
                s.unready = False
        return True

    def ready_to_act(self, s: Fighting) -> bool:
        """V-11.16, V-10.8, V-10.9 after the turn's start: a brace without support lapses; lying and
        engaged, it stands up; ``redraw`` takes the gun again. False once the fight is decided."""
        if not (s.prone or s.lying or s.cover > 0):
            s.braced = False
        if s.lying and s.ap >= 1 and self.engaged(s):  # V-10.8: it stands up to fight
            self.get_up(s)
            if self.lost_foe(s):
                return False
        t = s.f.tactic
        redraw_cost = (2 if self.o["pickup"] == "pickup_and_ready" else 1) if s.gun_down or s.gun_knocked else 1
        if (t.redraw and s.f.gun is not None and not s.gun_in_hand and not self.engaged(s)
                and s.ap - t.keep >= redraw_cost):  # V-10.9: the gun in hand again
            if self.sector_shot(s, redraw_cost):
                s.ap -= redraw_cost
                s.gun_down, s.gun_knocked, s.gun_in_hand = False, False, True
            if self.lost_foe(s):
                return False
        return True

    def single_attack(self) -> Record:
        """``attack``: side a's first shot or throw of its first turn, after the turn's steps before
        it (readying, a reload, a move, lying down, bracing, a thrower's moves, V-15); after a draw,
        or without a gun in hand, its first melee attack."""
        s = self.fighters[0]
        if s.gun_in_hand or s.f.tactic.shot == "throw":
            if not self.get_ready(s) or not self.ready_to_act(s):
                return self.rec
            step = self.before_shots(0) if s.gun_in_hand else self.before_throws(0)
            if step == "over":
                return self.rec
            if step == "shots":
                if self.plan_shot(s) != "none":
                    self.look(s)
                    shot = self.plan_shot(s)
                    if shot == "throw":
                        self.throw(0)
                    elif shot != "none":
                        self.shoot(0, shot)
                return self.rec
        if not self.in_reach(s):
            return self.rec
        if s.stowed:
            s.ap -= 1
            s.stowed = False
        kind = self.plan(s)
        if kind != "none":
            s.ap -= KIND_COST[kind]
            self.attack(0, kind)
        return self.rec


    # -- V-10, V-11, V-15 at a distance ------------------------------------------------------------
    def dist(self, s: Fighting) -> int:
        """V-10.3: metres between ``s`` and its foe."""
        return abs(s.x - self.foe(s).x)

    @staticmethod
    def band(d: int) -> int:
        return next((b for b, top in enumerate(BAND_UP_TO) if d <= top), len(BAND_UP_TO))

    @staticmethod
    def reach(s: Fighting) -> int:
        """V-3.15: 2 m with a long melee weapon in hand, else 1 m (bare hands, a gun)."""
        return 2 if s.weapon["long"] else 1

    def in_reach(self, s: Fighting) -> bool:
        return self.dist(s) <= self.reach(s)

    def engaged(self, s: Fighting) -> bool:
        """V-11.11: within the foe's melee reach."""
        return self.dist(s) <= self.reach(self.foe(s))

    def point_blank(self, s: Fighting) -> bool:
        return self.dist(s) <= 1

    def dodged(self, d: Fighting, s: int, r: int) -> int:
        """V-4.4: the successes ``s`` of an attack left after ``d``'s dodge of ``r`` successes: 3+
        also +2 initiative, 2+ none left, 1 half (rounded up), a negative dodge exposes ``d`` (its
        −r added to a hit, or to a miss with ``exposure = miss_becomes_hit``)."""
        if r >= 3:
            d.init_bonus += 2
        if r >= 2:
            return 0
        if r == 1:
            return (s + 1) // 2
        if r < 0 and (s > 0 or self.o["exposure"] == "miss_becomes_hit"):
            return s - r
        return s

    def step(self, s: Fighting, stop: int | None = None) -> None:
        """V-10.4: one move (1 AP) of up to the speed toward the foe, stopping at its melee reach
        (V-3.15; or ``stop`` metres away); cover lost."""
        o = self.foe(s)
        s.ap -= 1
        gap = o.x - s.x
        moved = min(self.speed(s), max(abs(gap) - (self.reach(s) if stop is None else stop), 0))
        s.x += moved if gap > 0 else -moved
        if self.o["cover_move"] == "forfeit":
            s.cover = 0
        s.braced = False

    def speed(self, s: Fighting) -> int:
        """V-10.5: HALFSPD traumas and lying prone halve the speed once (``halving = once``) or each again."""
        n = s.halfspd + s.lying
        n = n if self.o["halving"] == "stack" else min(n, 1)
        return s.f.speed >> n

    def step_back(self, s: Fighting) -> None:
        """V-15.2: one move (1 AP) of up to the speed away from the foe."""
        o = self.foe(s)
        s.ap -= 1
        s.x += self.speed(s) if (s.x - o.x > 0 or (s.x == o.x and s.side == 1)) else -self.speed(s)
        if self.o["cover_move"] == "forfeit":
            s.cover = 0
        s.braced = False

    def retreat(self, s: Fighting) -> None:
        """V-10.7: a move away; leaving the foe's reach draws its free blow at −2 (a quick attack)."""
        if not self.sector_shot(s, 1):
            return
        if len(self.fighters) > 2 and self.o["opportunity_from"] == "every":  # V-14.6
            near = [j for j in self.fighters if j.side != s.side and j.out is None and not j.away
                    and abs(j.x - s.x) <= self.reach(j)]
            self.step_back(s)
            for j in near:
                if j.out is not None or abs(j.x - s.x) <= self.reach(j):
                    continue
                if j.gun_in_hand and self.o["gun_melee"] == "none":
                    continue
                self.attack(j.row, "quick", s)
                if self.decided() or s.out is not None:
                    return
            return
        was = self.engaged(s)
        self.step_back(s)
        e = self.foe(s)
        if was and not self.engaged(s) and not (e.gun_in_hand and self.o["gun_melee"] == "none"):
            self.attack(e.row, "quick", s)

    def blind(self, s: Fighting) -> bool:
        return s.sight == 2 and not self.point_blank(s)

    def look(self, s: Fighting) -> None:
        """V-11.18: the free perception check (Интеллект + Наблюдательность − 2) under poor visibility."""
        if self.o["visibility"] != "poor" or self.point_blank(s):
            return
        if s.sight and self.o["visibility_check"] != "per_shot":
            return
        r = self.fighter_check(s, s.f.attributes.intellect + s.f.skills.perception - 2)
        s.sight = 1 if r >= 1 else 2

    def can_shoot(self, s: Fighting, shot: str) -> bool:
        if shot == "throw":
            return s.thrown_n < len(s.f.thrown) and not self.engaged(s) and self.band(self.dist(s)) <= 4
        if not s.gun_in_hand or s.reload or self.band(self.dist(s)) > 4:
            return False
        if shot == "aimed" and (self.engaged(s) or self.blind(s)):
            return False
        return not (shot == "burst" and "automatic" not in s.f.gun.properties)

    def plan_shot(self, s: Fighting) -> str:
        pref = s.f.tactic.shot
        if pref == "none":
            return "none"
        room = s.ap - s.f.tactic.keep
        if pref == "throw":
            return "throw" if self.can_shoot(s, "throw") and self.throw_cost(s) <= room else "none"
        return next((x for x in [pref, *FALLBACK[pref]] if self.can_shoot(s, x) and SHOT_COST[x] <= room), "none")

    def throw_cost(self, s: Fighting) -> int:
        return 2 if s.throw_ready else 3

    def item(self, s: Fighting) -> Any:
        """V-11.20: the next item of the supply."""
        return s.f.thrown[s.thrown_n]

    def shot_pool(self, a: Fighting, d: Fighting, shot: str) -> int:
        b = self.band(self.dist(a))
        effective = ["close", "medium"].index(self.o["throw_range"]) + 1 if shot == "throw" else \
            BAND_NAMES.index(a.f.gun.range)
        beyond = -3 * max(b - effective, 0)
        if self.engaged(a):
            rng = -3 + (BAND_DICE[b] if self.o["engaged_range"] == "add" else 0) + beyond
        else:
            rng = BAND_DICE[b] + beyond
        held = 2 if d.immobilised else 0  # V-6.9: attacks at it +2 dice
        if any(j is not a and j.side == a.side and j.out is None and not j.away and abs(j.x - d.x) <= 1
               for j in self.fighters):  # V-14.5: shooting into melee
            held += int(self.o["into_melee_dice"])
        if shot == "throw":
            return (a.f.attributes.physique + a.f.skills.strength + self.item(a).modifier + rng + d.f.size_mod
                    - a.pen_str - (3 if self.blind(a) else 0) - (1 if d.prone or d.lying else 0) + held)
        dials = sum(int(self.o[f"{p}_dice"]) for p in a.f.gun.properties if p in DIAL_PROPERTIES)  # V-11.21
        return (a.f.attributes.agility + a.f.skills.shooting + a.f.gun.modifier + SHOT_DICE[shot] + rng + dials
                + d.f.size_mod - (1 if d.prone or d.lying else 0) + (1 if a.braced else 0) - a.pen_shoot
                - (3 if self.blind(a) else 0) + held + a.ord[0])

    def continuation(self) -> int:
        total = 0
        while True:
            face = self.d20()
            if face <= 4:
                return total + (self.one if face == 1 and self.o["stop_die"] == "counted" else 0)
            total += self.value(face)

    def shot_armour_roll(self, src: Fighting, tgt: Fighting, piercing: bool) -> int:
        armour_dice = tgt.armour + (tgt.f.armour.quality if tgt.f.armour else 0)
        shield_dice = tgt.shield if self.o["shield"] != "ignore" else 0
        if piercing:
            cut = int(self.o["armour_piercing_dice"])
            from_armour = min(cut, armour_dice)
            armour_dice -= from_armour
            shield_dice = max(shield_dice - (cut - from_armour), 0)
        faces = [self.d20() for _ in range(armour_dice + shield_dice + tgt.cover)]
        successes = sum(self.value(x) for x in faces if x != 1)
        ones = faces.count(1)
        lost = {}
        order = ["cover", "armour", "shield"] if self.o["cover_ones"] == "cover_first" else [
            "armour", "shield", "cover"]
        for part in order:
            lost[part] = min(ones, getattr(tgt, part))
            ones -= lost[part]
            setattr(tgt, part, getattr(tgt, part) - lost[part])
        self.rec.degraded[tgt.side] += lost["armour"] + lost["shield"]
        if not (tgt.prone or tgt.lying or tgt.cover > 0):
            tgt.braced = False
        if self.o["armour_ones"] == "net":
            return max(successes + faces.count(1) * self.one, 0)
        return successes

    def shoot(self, ai: int, shot: str, sector: bool = False) -> None:
        a = self.fighters[ai]
        d = self.foe(a)
        if sector:
            a.sector -= 1
        else:
            a.ap -= SHOT_COST[shot]
        pool = self.shot_pool(a, d, shot)
        s = self.fighter_check(a, pool)
        if (shot == "burst" and (self.o["burst_hit"] == "total" or s >= 1)
                and (pool > 0 or self.o["burst_desperate"] == "continue")):
            s += self.continuation()
            if self.o["high_capacity"] == "extra_chain" and "high_capacity" in a.f.gun.properties:
                s += self.continuation()
            if self.o["burst_hit"] == "first_check":  # V-11.12: the check hit; the chain only adds
                s = max(s, 1)
        if shot == "hip":
            a.hip_chain += 1
            a.reload = a.reload or a.hip_chain >= 3
        else:
            a.hip_chain = 0
        if shot == "burst" or "single_shot" in a.f.gun.properties:
            a.reload = True
        if self.o["ammo"] == "magazine":
            a.ammo = 0 if shot == "burst" else a.ammo - 1
            a.reload = a.reload or a.ammo <= 0
        if (self.o["gm_reload_tokens"] == "on" and not self.is_npc(a) and self.is_npc(d) and not a.reload
                and self.tokens_left(d) >= 1):  # V-11.14 (d): the GM jams the gun
            self.tokens_used[d.side] += 1
            a.reload = True
        if self.o["brace"] == "next_shot":
            a.braced = False
        outcome = "miss"
        if s >= 1:
            spread = []
            if shot == "burst" and len(self.fighters) > 2 and a.f.spread == "one_each":  # V-15.9
                spread = [j for j in self.fighters if j is not d and j.side != a.side and j.out is None
                          and not j.away and abs(j.x - d.x) <= 2][:s - 1]
            outcome = self.hit(a, d, s - len(spread), shot, a.f.gun)
            for j in spread:
                a.foe = j.row
                self.hit(a, j, 1, shot, a.f.gun)
                a.foe = d.row
        self.rec.attacks[a.side][outcome] = self.rec.attacks[a.side].get(outcome, 0) + 1

    def hit(self, a: Fighting, d: Fighting, s: int, shot: str, item: Any) -> str:
        """V-12: a shot's or throw's hit with ``s`` successes; its outcome."""
        outcome = "hit"
        health = d.health
        extra, crit, traumas, will, disarm = s - 1, item.crit, 0, 0, False
        piercing = "armour_piercing" in item.properties
        policy = a.f.attack_spending
        if policy == "suppress_covered":
            dice = (d.armour + (d.f.armour.quality if d.f.armour else 0)
                    + (d.shield if self.o["shield"] != "ignore" else 0))
            if piercing:
                dice = max(dice - int(self.o["armour_piercing_dice"]), 0)
            policy = "intimidate" if dice + d.cover >= a.f.suppress_at else "trauma_first"
        if policy == "trauma_first" and crit:
            traumas, extra = extra // crit, extra % crit
        elif policy == "disarm_first" and self.o["ranged_disarm"] == "on" and crit and extra >= crit and d.armed:
            disarm, extra = True, extra - crit
        elif policy == "intimidate":
            will, extra = extra * (2 if shot == "burst" else 1), 0
        self.piercing = piercing
        if self.blow(a, d, item.damage + extra, traumas, disarm, will, shot=True):
            outcome = "armour_stopped"
        if d.health < health or self.o["overwatch_break"] == "any_hit":
            d.sector = 0
        return outcome

    def throw(self, ai: int) -> None:
        """V-11.7, V-11.20: a throw of the next item; the foe may dodge (not defend)."""
        a = self.fighters[ai]
        d = self.foe(a)
        a.ap -= self.throw_cost(a)
        item = self.item(a)
        react = "dodge" if self.reaction(a, d, "standard") != "none" else "none"
        if react == "dodge":
            d.ap -= 1
            if self.npc_pays(d):
                self.tokens_used[d.side] += 1
        successes = self.fighter_check(a, self.shot_pool(a, d, "throw"))
        if a.strain:
            a.lose_health(a.strain)
        s = max(successes, 0)
        rolled = s
        if react == "dodge":
            r = self.fighter_check(d, d.f.attributes.agility + d.f.skills.nimbleness - item.modifier - d.pen_agil)
            if d.strain:
                d.lose_health(d.strain)
            s = self.dodged(d, s, r)
        if s > 0:
            outcome = self.hit(a, d, s, "throw", item)
        else:
            outcome = "miss" if rolled == 0 else "dodged"
        a.thrown_n += 1
        a.throw_ready = self.o["throw_ready"] == "free"
        self.rec.attacks[a.side][outcome] = self.rec.attacks[a.side].get(outcome, 0) + 1

    def before_throws(self, i: int) -> str:
        """V-11.20, V-15.4: the moves to the item's effective range before the throws: "shots" (the
        throws next), "over" (decided) or "melee" (engaged, or nothing left to throw)."""
        s = self.fighters[i]
        stop = BAND_UP_TO[["close", "medium"].index(self.o["throw_range"]) + 1]
        while s.thrown_n < len(s.f.thrown):
            if self.engaged(s):
                return "melee"
            if not (s.f.tactic.move in ("close_in", "advance") and self.dist(s) > stop
                    and s.ap - s.f.tactic.keep >= 1):
                return "shots"
            if s.lying and (not self.get_up(s) or s.ap < 1):
                pass
            elif self.o["overwatch_move"] == "end":
                self.step(s, stop)
                self.sector_shot(s, 0)
            elif self.sector_shot(s, 1):
                self.step(s, stop)
            if self.lost_foe(s):
                return "over"
        return "melee"

    def thrower(self, i: int) -> bool:
        """V-11.20 with items left, not engaged: move to the effective range, throw; True: turn over."""
        s = self.fighters[i]
        out = lambda: self.lost_foe(s)  # noqa: E731
        step = self.before_throws(i)
        if step != "shots":
            return step == "over"
        while s.thrown_n < len(s.f.thrown):
            if self.engaged(s):
                return False
            if self.plan_shot(s) != "throw":
                return True
            self.look(s)
            if out():
                return True
            if self.sector_shot(s, self.throw_cost(s)):
                self.throw(i)
            if out():
                return True
        return False

    def start_action(self, s: Fighting, cost: int, still: Any) -> bool | None:
        """V-11.13: an action at the start of ``s``'s turn draws the foe's sector shot first (not with
        overwatch_turn_start = exempt); None when the fight is decided or ``s`` is out, else whether
        the action is still possible (``still()``) after it."""
        if self.o["overwatch_turn_start"] == "fires":
            self.sector_shot(s, cost)
            if self.decided() or s.out is not None:
                return None
        return still()

    def sector_shot(self, s: Fighting, cost: int) -> bool:
        """V-11.13: the foe in sector control fires a hip shot before ``s``'s action; whether the
        action goes ahead. V-14.8 (several a side, ``overwatch_shooters = every``): every enemy in
        sector control, in row order, turning to ``s`` for the shot."""
        if len(self.fighters) > 2 and self.o["overwatch_shooters"] == "every":
            for w in self.fighters:
                if w.side == s.side or not w.sector or w.out is not None or w.away:
                    continue
                if w.foe >= 0 and self.engaged(w):
                    w.sector = 0
                    continue
                aim, w.foe = w.foe, s.row
                if self.can_shoot(w, "hip"):
                    w.sector -= 1
                    self.look(w)
                    w.sector += 1
                    self.shoot(w.row, "hip", sector=True)
                w.foe = aim
                if self.decided() or s.out is not None:
                    return False
            return s.ap >= cost
        w = self.foe(s)
        if not w.sector or w.foe != s.row:
            return True
        if self.engaged(w):
            w.sector = 0
            return True
        if not self.can_shoot(w, "hip"):
            return True
        w.sector -= 1
        self.look(w)
        w.sector += 1
        self.shoot(w.row, "hip", sector=True)
        if self.lost_foe(s):
            return False
        return s.ap >= cost

    def get_up(self, s: Fighting) -> bool:
        """V-10.8: standing up from lying prone by choice (1 AP), after the foe's sector shot."""
        if not self.sector_shot(s, 1):
            return False
        s.ap -= 1
        s.lying = False
        if s.cover <= 0 and not s.prone:
            s.braced = False
        return True

    def move(self, s: Fighting) -> None:
        if s.lying and (not self.get_up(s) or s.ap < 1):
            return
        if self.o["overwatch_move"] == "end":
            self.step(s)
            self.sector_shot(s, 0)
        elif self.sector_shot(s, 1):
            self.step(s)

    def before_shots(self, i: int) -> str:
        """V-15.1–V-15.5 with the gun in hand, before the shots: "shots" (the shots next), "over"
        (decided) or "melee" (it drew its melee weapon)."""
        s = self.fighters[i]
        keep = s.f.tactic.keep
        out = lambda: self.lost_foe(s)  # noqa: E731
        if s.f.tactic.engaged == "draw" and self.engaged(s) and (s.f.weapon is None or s.ap >= 1):
            if s.f.weapon is None:  # V-10.9: nothing to ready: the gun dropped, free, for bare hands
                s.gun_down = True
            else:
                s.ap -= 1
            s.gun_in_hand = False
            return "melee"
        if s.f.tactic.engaged == "step_back" and self.engaged(s) and s.ap >= 1:
            self.retreat(s)
            if out():
                return "over"
        cost = 3 if self.o["long_reload"] == "extended" and "long_reload" in s.f.gun.properties else 2
        if s.reload and s.ap - keep >= cost:
            if self.sector_shot(s, cost):
                s.ap -= cost
                s.reload, s.hip_chain, s.ammo = False, 0, s.f.gun.magazine
            if out():
                return "over"
        if (s.f.tactic.move == "advance" and s.ap - keep >= 1
                and self.band(self.dist(s)) > BAND_NAMES.index(s.f.gun.range)):
            self.move(s)
            if out():
                return "over"
        e = self.foe(s)
        if (s.f.tactic.move == "keep_distance" and s.ap - keep >= 1 and not e.gun_in_hand
                and self.dist(s) <= 2 * e.f.speed + self.reach(e)):
            self.retreat(s)
            if out():
                return "over"
        t = s.f.tactic
        pays = s.ap - keep >= 1 + min(SHOT_COST.get(t.shot, 0), SHOT_COST["standard"])
        if t.prone and not s.lying and not s.prone and not self.engaged(s) and pays:  # V-10.8: lie down
            if self.sector_shot(s, 1):
                s.ap -= 1
                s.lying = True
            if out():
                return "over"
        if (t.brace and not s.braced and (s.prone or s.lying or s.cover > 0)
                and s.ap - keep >= 1 + min(SHOT_COST.get(t.shot, 0), SHOT_COST["standard"])):
            if self.sector_shot(s, 1):
                s.ap -= 1
                s.braced = True
            if out():
                return "over"
        return "shots"

    def shooter(self, i: int) -> bool:
        """V-15.1–V-15.7 with the gun in hand; False when it draws its melee weapon instead."""
        s = self.fighters[i]
        out = lambda: self.lost_foe(s)  # noqa: E731
        step = self.before_shots(i)
        if step != "shots":
            return step == "over"
        t = s.f.tactic
        while self.plan_shot(s) != "none":
            self.look(s)
            shot = self.plan_shot(s)
            if out():
                return True
            if shot == "none":
                break
            if self.sector_shot(s, SHOT_COST[shot]):
                self.shoot(i, shot)
            if out():
                return True
        if t.overwatch and not self.engaged(s):  # V-15.7: the AP left set aside
            ap = s.ap - (1 if self.o["overwatch_cost"] == "declare_quick" else 0)
            if ap >= 1:
                s.sector, s.ap = ap, 0
        return True


def duel(a: Fighter, b: Fighter, options: dict[str, Any], traumas: list[Trauma], seed: int, index: int,
         single_attack: bool = False) -> list[int]:
    """The counter row of duel (or single attack) ``index`` of a run with ``seed``."""
    game = Game([[a], [b]], options, traumas, Xoshiro256StarStar.for_duel(seed, index))
    rec = game.single_attack() if single_attack else game.duel()
    if single_attack:
        rec.winner = None
        row = rec.counter_row(int(options["round_cap"]))
        row[L.COUNTERS.draws] = 0
        return row
    return rec.counter_row(int(options["round_cap"]))


def attack(a: Fighter, b: Fighter, options: dict[str, Any], traumas: list[Trauma], seed: int, index: int) -> list[int]:
    """The counter row of single attack ``index`` of a run with ``seed`` (``api.attack``'s sampled attack)."""
    return duel(a, b, options, traumas, seed, index, single_attack=True)


def fight(side_a: list[Fighter], side_b: list[Fighter], options: dict[str, Any], traumas: list[Trauma], seed: int,
          index: int) -> list[int]:
    """The counter row, with its group block, of fight ``index`` of several a side (V-14) of a run with
    ``seed``."""
    game = Game([list(side_a), list(side_b)], options, traumas, Xoshiro256StarStar.for_duel(seed, index))
    game.group = True
    rec = game.duel()
    rec.fighters = game.fighters
    return rec.counter_row(int(options["round_cap"]))
