"""The shape of a feature's spec.json: its targets, their states, references and checks."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints
from typing_extensions import TypeAliasType

from argus.entrypoints import PLUGIN_NAME
from argus.schemas.models._base import UNIQUE_ITEMS, Absent, Closed, Document
from argus.schemas.models._generate import Published
from argus.schemas.models._spec_expectations import Expectation, RepoPath
from argus.schemas.models.spec_steps import Step

Text = Annotated[str, Field(min_length=1)]
Slug = TypeAliasType(
    "Slug",
    Annotated[
        str,
        StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64),
        Field(
            description="Lowercase letters, digits and hyphens, starting with a letter or digit."
        ),
    ],
)
# Every gate Argus runs (config.ALL_GATES and OPT_IN_GATES; a test keeps them equal).
# A built-in gate or an installed plug-in's (docs/plugins.md): the runner refuses a name no
# installed gate has, in one line naming the known ones.
GateName = TypeAliasType(
    "GateName",
    Annotated[
        str,
        StringConstraints(pattern=PLUGIN_NAME.pattern),
        Field(description="A gate's name: a built-in's, or an installed plug-in's."),
    ],
)
# At most 256 characters: every string a probe records is held to that (argus.sense.truncate),
# and probe.json keys each mask's boxes by its selector.
MaskSelector = Annotated[str, StringConstraints(min_length=1, max_length=256)]
ElementSelectors = TypeAliasType(
    "ElementSelectors", Annotated[list[Text], Field(json_schema_extra=UNIQUE_ITEMS)]
)
Slugs = Annotated[list[Slug], Field(min_length=1, json_schema_extra=UNIQUE_ITEMS)]
UniqueTexts = Annotated[list[Text], Field(json_schema_extra=UNIQUE_ITEMS)]
Ratio = Annotated[float, Field(ge=0, le=1)]


class Viewport(Closed):
    width: int = Field(ge=1, le=16384)
    height: int = Field(ge=1, le=16384)


class DesignSystem(Closed):
    tokens: RepoPath = Field(
        description="Repository-relative path of the design tokens file (Argus's tokens.json "
        "shape or W3C Design Tokens JSON)."
    )
    contrast_pairs: RepoPath | Absent = Field(
        default=None,
        description="Repository-relative path of contrast-pairs.json: the foreground/background "
        "token pairs the contrast gate checks.",
    )


class Charts(Closed):
    series: dict[Annotated[str, Field(min_length=1, max_length=200)], Text] | Absent = Field(
        default=None,
        description="Series name (a mark's data-series) -> the colour token its marks and "
        "legend swatch must show. A mark of a listed series is held to that token, not merely "
        "to the palette.",
    )


class Reference(Closed):
    # A present reference names its file.
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"status": {"const": "present"}}, "required": ["status"]},
            "then": {"required": ["file"]},
        }
    )

    state: str
    appearance: str
    status: Literal["present", "needed", "candidate"] = Field(
        description="present: the file exists and gates the loop; needed: a human still has to "
        "supply it; candidate: a render awaits approval."
    )
    source: Literal["human", "candidate"] | Absent = Field(
        default=None,
        description="Who made the image: a designer ('human') or an approved Argus render "
        "('candidate'). Carried into the sign-off record.",
    )
    file: Annotated[str, Field(min_length=1, max_length=1024)] | Absent = Field(
        default=None,
        description="Image path relative to the feature directory, normally "
        "references/{target}-{state}-{appearance}.png.",
    )


class Snapshot(Closed):
    """Snapshot (visual regression) settings for this target; unset values come from the
    project config."""

    masks: list[MaskSelector] | Absent = Field(
        default=None,
        description="CSS selectors (any that document.querySelectorAll takes; a bare word "
        "names an element id or data-testid first, then a tag): the boxes of every match the "
        "page draws are painted over in both images before comparing. The sensor resolves "
        "them in the page when it senses the view.",
    )
    max_diff_pixels: Annotated[int, Field(ge=0)] | Absent = None
    max_diff_pixel_ratio: Ratio | Absent = None
    max_window_density: Ratio | Absent = None
    threshold: Ratio | Absent = Field(
        default=None,
        description="Per-pixel colour distance tolerance (pixelmatch's threshold).",
    )


class Canonical(Closed):
    state: str | Absent = None
    appearance: str | Absent = None


class Hierarchy(Closed):
    headings: UniqueTexts | Absent = Field(
        default=None,
        description="Elements measured as headings, whatever their text (and what sits inside "
        "them), as #id, [data-testid=x], an id or a tag: a figure-like text that is a heading "
        "here.",
    )
    figures: UniqueTexts | Absent = Field(
        default=None,
        description="Elements measured as figures (data), not headings (and what sits inside "
        "them), as #id, [data-testid=x], an id or a tag: a KPI card, a hero number. Numbers, "
        "amounts, dates, table cells, <data>, <meter> and <output> are figures already.",
    )


class Target(Closed):
    id: Slug = Field(description="Target id, unique within the feature, e.g. 'list' or 'detail'.")
    route: Text = Field(
        description="Where the adapter finds the target: a URL path for the web adapter, any "
        "string a project adapter understands."
    )
    states: Slugs = Field(
        description="Render states a fixture can actually produce, e.g. ['empty', 'populated']."
    )
    appearances: Slugs = Field(
        default=["light"],
        description="Appearances to sign off, e.g. ['light', 'dark']. Default ['light'].",
    )
    fixtures: dict[str, Text] | Absent = Field(
        default=None,
        description="State name -> fixture name the adapter loads before rendering. A state "
        "without an entry uses its own name as the fixture.",
    )
    steps: dict[str, Annotated[list[Step], Field(min_length=1, max_length=50)]] | Absent = Field(
        default=None,
        description="State name -> interaction steps run after the page loads and settles, "
        "before the capture: how the state is reached (a dialog opened by a click, a filled "
        "form). A state without steps is captured as loaded.",
    )
    canonical: Canonical | Absent = Field(
        default=None,
        description="The one state and appearance that gets a reference image. Defaults to the "
        "first state and the first appearance; the other views are described as deltas in "
        "spec.md.",
    )
    a11y_contract: list[Text] | Absent = Field(
        default=None,
        description="Element ids (id or data-testid) the probe must contain. A trailing '*' "
        "matches every id with that prefix.",
    )
    references: list[Reference] | Absent = Field(
        default=None, description="Reference image manifest for this target."
    )
    component_contracts: list[dict[str, Any]] | Absent = Field(
        default=None,
        description="Free-form per-state component expectations, read by a judge as spec text.",
    )
    viewport: Viewport | Absent = Field(
        default=None,
        description="Viewport for this target; wins over the spec-level viewport.",
    )
    full_page: bool = Field(
        default=False,
        description="Capture the whole scrollable page instead of the viewport.",
    )
    primary_action: Text | Absent = Field(
        default=None,
        description="id or data-testid of the single primary control, used by the hierarchy check.",
    )
    primary_actions: dict[str, Text | None] | Absent = Field(
        default=None,
        description="State name -> that state's primary action (id or data-testid), over "
        "primary_action; null: the state has no primary action (a wizard step without the "
        "target's button), and the hierarchy check judges its headings alone.",
    )
    hierarchy: Hierarchy | Absent = Field(
        default=None,
        description="What the hierarchy check (no text larger than the h1) measures as headings "
        "or as figures, where its own reading is not what the spec means.",
    )
    snapshot: Snapshot | Absent = None
    expectations_cover_prose: bool = Field(
        default=False,
        description="The spec's author declares that the machine expectations (ARIA template, "
        "counts, texts, focus order) check everything its prose acceptance criteria and "
        "component contracts say about function. Without it, a metric judge whose machine "
        "checks all pass abstains on functional_correctness (prose not measured).",
    )
    inert: ElementSelectors | dict[str, ElementSelectors] | Absent = Field(
        default=None,
        description="Controls that are meant to do nothing when activated (a decorative "
        "toggle, a placeholder link), as #id, [data-testid=x], an id or a tag, naming the "
        "control or an ancestor: a list for every state, or state name -> list. Any other "
        "control whose activation changes nothing (no DOM, focus, URL, dialog or request) is a "
        "functional_correctness finding.",
    )
    allow_truncation: UniqueTexts | Absent = Field(
        default=None,
        description="Elements whose text may be cut short (an ellipsis, overflow: hidden, "
        "-webkit-line-clamp), as #id, [data-testid=x], an id or a tag. Any other truncated "
        "text is a typography finding.",
    )
    expectations: dict[str, Expectation] | Absent = Field(
        default=None,
        description="State name -> machine-checkable expectations for that state.",
    )
    gates: Annotated[list[GateName], Field(json_schema_extra=UNIQUE_ITEMS)] | Absent = Field(
        default=None,
        description="Gates to run for this target, replacing the project's list.",
    )


class SpecFile(Document):
    feature: Slug = Field(
        description="Feature slug; the spec lives at argus/specs/{feature}/spec.json."
    )
    adapter: Text = Field(
        description="Which sensor renders and probes this feature: 'web' (built in) or the name "
        "of a project adapter under argus/adapters/{adapter}/."
    )
    design_system: DesignSystem
    viewport: Viewport | Absent = Field(
        default=None,
        description="Viewport for every target that does not set its own. Default 1280x800.",
    )
    charts: Charts | Absent = Field(
        default=None,
        description="How the feature's charts use the palette (docs/gates.md, 'Charts').",
    )
    targets: list[Target] = Field(
        min_length=1, description="The screens, pages or views the loop converges, one at a time."
    )


PUBLISHED = Published(
    SpecFile,
    "Argus feature spec (spec.json)",
    "The machine-readable contract of one feature: which screens (targets) exist, which "
    "states and appearances each is signed off in, the fixtures that render them, the "
    "reference images, the accessibility ids and the checks a render must satisfy. Prose "
    "acceptance criteria live next to it in spec.md.",
)
