"""JSON Schemas of the input files (brutal_sim/schema.py, ``brutal-sim schema``): every bundled and
example file passes its schema and its loader; on a set of bad files the schema and the loader agree
(each rejects it, the loader with one line); the shipped schemas equal freshly generated ones."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any, Callable

import jsonschema
import pytest
from typer.testing import CliRunner

import brutal_sim
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import BUNDLED_RULESETS, get_ruleset
from brutal_sim.schema import SCHEMA_DIR, all_schemas, kinds, schema, shipped_name

PACKAGE = Path(brutal_sim.__file__).parent
DATA = PACKAGE / "data"
EXAMPLES = Path(__file__).parents[2] / "examples"
#: examples that are not scenarios: (kind, ruleset)
EXAMPLE_KINDS = {"sergeant.toml": ("fighter", "brutal"), "rules_variant.toml": ("rules", "brutal"),
                 "vereteno_gunfighter_braced.toml": ("fighter", "vereteno"),
                 "vereteno_gunfighter_hip.toml": ("fighter", "vereteno"),
                 "wfrp2e_pistolier_one_pistol.toml": ("fighter", "wfrp2e"),
                 "wfrp2e_knight_arrives.toml": ("fighter", "wfrp2e"),
                 "vereteno_sergeant_silent.toml": ("fighter", "vereteno"),
                 "vereteno_trooper_alone.toml": ("fighter", "vereteno"),
                 "vereteno_raider_cry.toml": ("fighter", "vereteno"),
                 "vereteno_gunner_spread.toml": ("fighter", "vereteno")}
#: bundled files that are not named after their kind
FILE_KINDS = {"crit_example.toml": "crit_table"}


def _is_toml_integer(checker: Any, instance: Any) -> bool:
    """A TOML integer: 3.0 is a float in TOML (the loaders reject it where an integer is due)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


TomlValidator = jsonschema.validators.extend(
    jsonschema.Draft7Validator,
    type_checker=jsonschema.Draft7Validator.TYPE_CHECKER.redefine("integer", _is_toml_integer))


def schema_errors(kind: str, ruleset: str, data: dict[str, Any]) -> list[str]:
    validator = TomlValidator(schema(kind, ruleset))
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node).union(*map(_keys, node.values()))
    return set().union(*map(_keys, node)) if isinstance(node, list) else set()


def test_every_schema_is_a_valid_draft_7_schema():
    """Draft 7, which Taplo reads: no keyword of a later draft, every reference resolves."""
    later = {"$defs", "prefixItems", "unevaluatedProperties", "unevaluatedItems", "dependentRequired",
             "dependentSchemas", "$anchor", "$dynamicRef", "minContains", "maxContains"}
    for name, text in all_schemas().items():
        s = json.loads(text)
        assert s["$schema"] == "http://json-schema.org/draft-07/schema#"
        jsonschema.Draft7Validator.check_schema(s)
        assert not _keys(s) & later, name
        for ref in _refs(s):
            assert ref.startswith("#/definitions/") and ref.removeprefix("#/definitions/") in s["definitions"], name


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return ([node["$ref"]] if "$ref" in node else []) + [r for v in node.values() for r in _refs(v)]
    return [r for v in node for r in _refs(v)] if isinstance(node, list) else []


def test_shipped_schemas_equal_generated_ones():
    """``python -m brutal_sim.schema`` writes them; rerun it after changing a model or an option."""
    generated = all_schemas()
    shipped = {str(p.relative_to(PACKAGE / "schemas")): p.read_text(encoding="utf-8")
               for p in (PACKAGE / "schemas").rglob("*.json")}
    assert sorted(shipped) == sorted(generated)
    stale = [name for name in generated if shipped[name] != generated[name]]
    assert not stale, f"stale schemas {stale}: run python -m brutal_sim.schema"
    assert (SCHEMA_DIR / "brutal" / "fighter.json").is_file()


def bundled_files() -> list[tuple[Path, str, str]]:
    """Every bundled data file and example: (path, kind, ruleset)."""
    out = []
    for ruleset in BUNDLED_RULESETS:
        root = DATA / ruleset
        out += [(p, "fighter", ruleset) for p in sorted((root / "fighters").glob("*.toml"))]
        out += [(p, FILE_KINDS.get(p.name, p.stem), ruleset) for p in sorted(root.glob("*.toml"))]
    for p in sorted(EXAMPLES.glob("*.toml")):
        kind, ruleset = EXAMPLE_KINDS.get(p.name, ("scenario", "brutal"))
        out.append((p, kind, ruleset))
    return out


def test_the_bundled_files_are_all_found():
    found = {(p.parent.name if p.parent.name != "fighters" else "fighters", kind) for p, kind, _ in bundled_files()}
    assert ("brutal", "zones") in found and ("wfrp2e", "crit_table") in found and ("vereteno", "traumas") in found
    assert ("examples", "scenario") in found and ("examples", "fighter") in found and ("examples", "rules") in found
    for p, kind, ruleset in bundled_files():
        assert kind in kinds(ruleset), p


@pytest.mark.parametrize("path,kind,ruleset", bundled_files(), ids=lambda x: getattr(x, "name", str(x)))
def test_bundled_and_example_files_pass_their_schema(path, kind, ruleset):
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert schema_errors(kind, ruleset, data) == []


def test_bundled_and_example_files_pass_their_loaders():
    for path, kind, ruleset in bundled_files():
        if kind in {"fighter", "rules", "scenario", "crit_table", "zones"}:
            LOADERS[kind](path, ruleset)
    for ruleset in BUNDLED_RULESETS:  # the catalog files
        get_ruleset(ruleset).catalog().from_dir(DATA / ruleset)


# -- bad files: the schema and the loader agree -----------------------------------------------

def _load_catalog_file(path: Path, ruleset: str, tmp: Path) -> None:
    """A catalog file as the catalog reads it: the bundled folder with this file in its place."""
    root = tmp / f"catalog_{ruleset}"
    if not root.exists():
        shutil.copytree(DATA / ruleset, root)
    (root / path.name).write_bytes(path.read_bytes())
    try:
        get_ruleset(ruleset).catalog().from_dir(root)
    finally:
        (root / path.name).write_bytes((DATA / ruleset / path.name).read_bytes())


def _load_rules(path: Path, ruleset: str) -> None:
    module = {"brutal": "brutal_sim.rulesets.brutal.catalog", "wfrp2e": "brutal_sim.rulesets.wfrp2e.catalog",
              "vereteno": "brutal_sim.rulesets.vereteno.catalog"}[ruleset]
    __import__(module, fromlist=["load_rules"]).load_rules(str(path), {})


def _load_zones(path: Path, ruleset: str) -> None:
    from brutal_sim.rulesets.brutal.catalog import load_rules

    load_rules(None, {"zone_table": str(path)})


def _load_crit_table(path: Path, ruleset: str) -> None:
    from brutal_sim.rulesets.wfrp2e.crit import load_crit_table

    load_crit_table(str(path))


def _load_scenario(path: Path, ruleset: str) -> None:
    from brutal_sim.scenario import load_scenario

    load_scenario(str(path))


LOADERS: dict[str, Callable[[Path, str], Any]] = {
    "fighter": lambda path, ruleset: get_ruleset(ruleset).catalog().fighter(str(path)),
    "rules": _load_rules, "zones": _load_zones, "crit_table": _load_crit_table, "scenario": _load_scenario}

FIGHTER = {"brutal": 'name = "X"\nmain_hand = "arming_sword"\n',
           "wfrp2e": 'ruleset = "wfrp2e"\nws = 40\ns = 30\nt = 30\nag = 30\nw = 10\n',
           "vereteno": 'ruleset = "vereteno"\n[attributes]\nphysique = 3\nagility = 3\nintellect = 2\nempathy = 2\n'}
SCENARIO = 'matchups = [["swordsman", "brute"]]\n'

#: (what is wrong, kind, ruleset, file name, TOML text)
BAD = [
    # fighters
    ("wrong type", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + '[checks]\nmelee = "5"\n'),
    ("float for an integer", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + "movement = 5.0\n"),
    ("boolean for an integer", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + "fear = true\n"),
    ("unknown key", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + "speed = 3\n"),
    ("unknown key of a sub-table", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + "[attributes]\nluck = 2\n"),
    ("out of range", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + "fear = 9\n"),
    ("bad enum", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + 'reaction = "block"\n'),
    ("bad size", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + 'size = "huge-ish"\n'),
    ("three damage levels", "fighter", "brutal", "f.toml", FIGHTER["brutal"] + "damage_levels = [3, 6, 9]\n"),
    ("inline weapon's bad dice", "fighter", "brutal", "f.toml",
     'off_hand = { damage = "banana" }\n'),
    ("inline weapon's die size", "fighter", "brutal", "f.toml", 'off_hand = { damage = "d7" }\n'),
    ("inline armour's bad zone", "fighter", "brutal", "f.toml", 'armour = [{ protection = 2, zones = ["tail"] }]\n'),
    ("inline tactic's unknown key", "fighter", "brutal", "f.toml", "tactic = { attack = \"normal\", speed = 1 }\n"),
    ("unknown weapon name", "fighter", "brutal", "f.toml", 'main_hand = "lightsaber"\n'),
    ("unknown armour name", "fighter", "brutal", "f.toml", 'armour = ["leather_cap", "mithril_shirt"]\n'),
    ("aiming tactic without its zone", "fighter", "brutal", "f.toml", 'tactic = "aimed"\n'),
    ("a zone for a tactic that takes none", "fighter", "brutal", "f.toml", 'tactic = "single:head"\n'),
    ("unknown talent name", "fighter", "wfrp2e", "f.toml", FIGHTER["wfrp2e"] + 'talents = ["luck"]\n'),
    ("unknown shield name", "fighter", "vereteno", "f.toml", 'shield = "tower"\n' + FIGHTER["vereteno"]),
    ("unknown tactic name", "fighter", "vereteno", "f.toml", 'tactic = "rush"\n' + FIGHTER["vereteno"]),
    ("missing required", "fighter", "wfrp2e", "f.toml", 'ruleset = "wfrp2e"\nws = 40\ns = 30\nt = 30\nag = 30\n'),
    ("out of range", "fighter", "wfrp2e", "f.toml", FIGHTER["wfrp2e"].replace("ws = 40", "ws = 140")),
    ("bad enum", "fighter", "wfrp2e", "f.toml", FIGHTER["wfrp2e"] + 'tactic = "frenzy"\n'),
    ("inline weapon's bad quality", "fighter", "wfrp2e", "f.toml",
     FIGHTER["wfrp2e"] + 'main_hand = { qualities = ["sharp"] }\n'),
    ("missing attributes", "fighter", "vereteno", "f.toml", 'ruleset = "vereteno"\nname = "X"\n'),
    ("out of range", "fighter", "vereteno", "f.toml", FIGHTER["vereteno"].replace("physique = 3", "physique = 0")),
    ("inline weapon's unknown property", "fighter", "vereteno", "f.toml",
     FIGHTER["vereteno"].replace("[attributes]", 'weapon = { damage = 3, properties = ["sharp"] }\n[attributes]')),
    # catalog files
    ("out of range", "weapons", "brutal", "weapons.toml", '[club]\ndamage = "d6"\npenetration = -1\n'),
    ("unknown key", "weapons", "brutal", "weapons.toml", '[club]\ndamage = "d6"\nweight = 2\n'),
    ("bad enum", "weapons", "brutal", "weapons.toml", '[club]\ndamage = "d6"\ntype = "slashing"\n'),
    ("two ranges", "weapons", "brutal", "weapons.toml", '[bow]\ndamage = "d6"\nranges = [10, 20]\n'),
    ("not a table", "weapons", "brutal", "weapons.toml", 'club = "d6"\n'),
    ("bad zone", "armour", "brutal", "armour.toml", '[cap]\nprotection = 1\nzones = ["hat"]\n'),
    ("wrong type", "talents", "brutal", "talents.toml", '[lucky]\nmodifiers = { melee = "1" }\n'),
    ("bad enum", "tactics", "brutal", "tactics.toml", '[rush]\nattack = "berserk"\n'),
    ("bad group", "weapons", "wfrp2e", "weapons.toml", '[club]\ngroup = "blunt"\n'),
    ("out of range", "armour", "vereteno", "armour.toml", '[vest]\nprotection = 30\n'),
    ("bad d66 key", "traumas", "vereteno", "traumas.toml",
     "\n".join(f'["{k}"]\nname = "t"' for k in ["17", *[f"{t}{u}" for t in range(1, 7) for u in range(1, 7)][1:]])),
    # rules files
    ("out of range", "rules", "brutal", "r.toml", "[options]\nround_cap = 0\n"),
    ("float for an integer", "rules", "brutal", "r.toml", "[options]\nround_cap = 10.0\n"),
    ("bad enum", "rules", "brutal", "r.toml", '[options]\narmour_model = "none"\n'),
    ("unknown option", "rules", "brutal", "r.toml", '[options]\narmor_model = "marker"\n'),
    ("unknown table", "rules", "brutal", "r.toml", '[optoins]\nround_cap = 10\n'),
    ("bad zone", "rules", "brutal", "r.toml", '[zone_table]\ndie = 20\nranges = { "1-20" = "tail" }\n'),
    ("die out of range", "rules", "brutal", "r.toml", '[zone_table]\ndie = 1\nranges = { "1" = "torso" }\n'),
    ("bad formula term", "rules", "brutal", "r.toml",
     '[options]\ncheck_bonus = "attribute_plus_skill"\n[check_formula]\nmelee = "luck + skill"\n'),
    ("bad enum", "rules", "wfrp2e", "r.toml", '[options]\ncrit_model = "gory"\n'),
    ("unknown option", "rules", "vereteno", "r.toml", "[options]\nround_cap = 10\nspeed = 3\n"),
    ("bad zone", "zones", "brutal", "z.toml", 'die = 6\n[ranges]\n"1-6" = "all"\n'),
    ("no ranges", "zones", "brutal", "z.toml", "die = 6\n"),
    # a critical table
    ("missing table", "crit_table", "wfrp2e", "c.toml",
     '[crit_grid]\ncolumns = [1]\nbands = [{ rolls = "01-00", effects = [1] }]\n'),
    ("bad effect code", "crit_table", "wfrp2e", "c.toml",
     '[crit_grid]\ncolumns = [1]\nbands = [{ rolls = "01-00", effects = [1] }]\n'
     + "".join(f'[crit_effects.{z}]\n1 = "{"BLEED" if z == "arm" else "OUT"}"\n'
               for z in ("head", "body", "arm", "leg"))),
    # scenarios
    ("out of range", "scenario", "brutal", "s.toml", SCENARIO + "n = 0\n"),
    ("wrong type", "scenario", "brutal", "s.toml", SCENARIO + 'n = "many"\n'),
    ("unknown key", "scenario", "brutal", "s.toml", SCENARIO + "repeats = 3\n"),
    ("a matchup of three", "scenario", "brutal", "s.toml", 'matchups = [["swordsman", "brute", "knight"]]\n'),
    ("target error out of range", "scenario", "brutal", "s.toml", SCENARIO + "target_error = 60\n"),
    ("variant without a name", "scenario", "brutal", "s.toml", SCENARIO + "[[variants]]\noptions = {}\n"),
]


@pytest.mark.parametrize("what,kind,ruleset,fname,text", BAD, ids=[f"{b[1]}-{b[2]}-{b[0]}" for b in BAD])
def test_schema_and_loader_both_reject_a_bad_file(what, kind, ruleset, fname, text, tmp_path):
    path = tmp_path / fname
    path.write_text(text, encoding="utf-8")
    assert schema_errors(kind, ruleset, tomllib.loads(text)), f"the schema accepts a file with {what}"
    with pytest.raises(DataError) as exc:
        if kind in LOADERS:
            LOADERS[kind](path, ruleset)
        else:
            _load_catalog_file(path, ruleset, tmp_path)
    assert "\n" not in str(exc.value)


def test_the_good_versions_of_the_bad_files_pass_both(tmp_path):
    """The bases the bad files change are themselves valid (so each bad file fails for its fault)."""
    for ruleset, text in FIGHTER.items():
        path = tmp_path / f"{ruleset}.toml"
        path.write_text(text, encoding="utf-8")
        assert schema_errors("fighter", ruleset, tomllib.loads(text)) == []
        LOADERS["fighter"](path, ruleset)
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    assert schema_errors("scenario", "brutal", tomllib.loads(SCENARIO)) == []
    LOADERS["scenario"](path, "brutal")


def test_what_the_schema_cannot_tell_the_loader_still_checks(tmp_path):
    """Rules across fields pass the schema and stop at the loader: a two-handed weapon with an
    off-hand item (B-4.10)."""
    text = 'main_hand = "great_axe"\noff_hand = "buckler"\n'
    path = tmp_path / "f.toml"
    path.write_text(text, encoding="utf-8")
    assert schema_errors("fighter", "brutal", tomllib.loads(text)) == []
    with pytest.raises(DataError, match="two-handed"):
        LOADERS["fighter"](path, "brutal")


def test_rules_schema_options_come_from_the_option_specs():
    s = schema("rules", "brutal")["properties"]["options"]["properties"]
    assert s["round_cap"]["minimum"] == 1 and s["round_cap"]["maximum"] == 10_000 and s["round_cap"]["default"] == 100
    assert s["armour_model"]["enum"] == ["marker", "marker_pierce_ignores_protection", "protection_only"]
    assert s["cramped_space"]["enum"] == ["false", "true", False, True]
    assert s["zone_table"]["type"] == "string"
    assert set(s) == {spec.name for spec in get_ruleset("brutal").option_specs}


# -- the command ------------------------------------------------------------------------------

runner = CliRunner()


def test_schema_command_prints_the_shipped_schema():
    for kind, ruleset in (("fighter", "wfrp2e"), ("weapon", "brutal"), ("scenario", "vereteno"),
                          ("crit_table", "wfrp2e"), ("traumas", "vereteno")):
        r = runner.invoke(app, ["schema", kind, "--ruleset", ruleset])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout) == json.loads(
            (PACKAGE / "schemas" / shipped_name(kind, ruleset)).read_text("utf-8"))


def test_schema_command_unknown_kind_is_one_line_naming_the_kinds():
    r = runner.invoke(app, ["schema", "crit_table", "--ruleset", "brutal"])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1
    assert "unknown kind 'crit_table'" in lines[0]
    assert "fighter, weapons, armour, talents, tactics, zones, rules, costs, scenario" in lines[0]
    r = runner.invoke(app, ["schema", "fighter", "--ruleset", "nope"])
    assert r.exit_code == 2 and "unknown ruleset 'nope'" in r.output


def test_the_documented_schema_line_and_file_work(tmp_path):
    """docs/reference.md, "Schemas for editors": the ``#:schema`` example is a valid fighter under
    both its schema (printed by the command) and the loader (the directive is a comment)."""
    doc = (Path(__file__).parents[2] / "docs" / "reference.md").read_text(encoding="utf-8")
    section = doc.split("## Schemas for editors", 1)[1].split("\n## ", 1)[0]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    assert example.startswith("#:schema ./fighter.schema.json\n")
    r = runner.invoke(app, ["schema", "fighter"])
    (tmp_path / "fighter.schema.json").write_text(r.stdout, encoding="utf-8")
    (tmp_path / "sergeant.toml").write_text(example, encoding="utf-8")
    validator = TomlValidator(json.loads((tmp_path / "fighter.schema.json").read_text(encoding="utf-8")))
    assert list(validator.iter_errors(tomllib.loads(example))) == []
    assert LOADERS["fighter"](tmp_path / "sergeant.toml", "brutal").name == "Sergeant"


@pytest.mark.parametrize("args", [["schema"], ["schema", ""], ["schema", "fighter\nweapons"], ["schema", "Fighter"],
                                  ["schema", "fighter", "--ruleset", ""], ["schema", "fighter", "--ruleset", "x\x00"],
                                  ["schema", "fighter", "extra"], ["schema", "zones", "--ruleset", "vereteno"]])
def test_schema_command_bad_words_are_one_line(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and (r.exception is None or isinstance(r.exception, SystemExit))
    assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_the_fighter_schema_takes_a_file_over_a_base():
    """A fighter file that names a bundled fighter as its ``base`` needs no other field."""
    assert schema_errors("fighter", "wfrp2e", {"base": "orc", "ws": 45}) == []
    assert schema_errors("fighter", "wfrp2e", {"ws": 45}) != []  # no base: the required fields
    assert schema_errors("fighter", "brutal", {"base": "nosuch"}) != []
