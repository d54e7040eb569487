"""A browsable page of the API, rendered on the server from the OpenAPI document itself
(no script or stylesheet from elsewhere, so it works offline and under our CSP).

Operations are grouped by tag (in the document's tag order), each with its method, path,
summary and description (the docstrings' RST ``code`` shown as code), its parameters, its
request body's fields (``$ref`` schemas resolved, nested ones a few levels deep) and its
responses, the successful ones with their fields.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, current_app, render_template
from markupsafe import Markup, escape

bp = Blueprint("api_docs", __name__, template_folder="../templates")

METHODS = ("get", "post", "put", "patch", "delete")
DEPTH = 3  # nested schemas shown this deep; deeper ones are named only
_CODE = re.compile(r"``(.+?)``|`([^`\n]+?)`", re.S)


def prose(text: Any) -> Markup:
    """Docstring text as HTML: paragraphs (blank lines), line breaks joined, RST or
    Markdown ``code`` (and `code`) as <code>; everything else escaped."""
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", str(text or "")) if p.strip()]
    out = []
    for paragraph in paragraphs:
        html, at = [], 0
        for found in _CODE.finditer(paragraph):
            html.append(str(escape(paragraph[at : found.start()])))
            html.append(f"<code>{escape(found.group(1) or found.group(2))}</code>")
            at = found.end()
        html.append(str(escape(paragraph[at:])))
        out.append(f"<p>{''.join(html)}</p>")
    return Markup("".join(out))


def inline(text: Any) -> Markup:
    """One line of docstring text (a field's or parameter's description) as HTML."""
    html = prose(text)
    return Markup(str(html).removeprefix("<p>").removesuffix("</p>").replace("</p><p>", " "))


def _ref_name(schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def _resolve(spec: dict[str, Any], schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {}
    name = _ref_name(schema)
    if name is not None:
        return spec.get("components", {}).get("schemas", {}).get(name, {})
    return schema


def type_of(spec: dict[str, Any], schema: Any) -> str:
    """A schema's type in a few words: "string", "integer ≥ 1", "array of Seat", …"""
    if not isinstance(schema, dict):
        return "any"
    name = _ref_name(schema)
    if name is not None:
        return name
    kind = schema.get("type") or ("object" if "properties" in schema else "any")
    if kind == "array":
        said = f"array of {type_of(spec, schema.get('items', {}))}"
    elif kind == "object" and schema.get("additionalProperties"):
        values = schema["additionalProperties"]
        said = (
            f"object of {type_of(spec, values)}"
            if isinstance(values, dict) and values
            else "object"
        )
    else:
        said = str(kind)
    if schema.get("format"):
        said += f" ({schema['format']})"
    if schema.get("enum"):
        said += ": one of " + ", ".join(str(v) for v in schema["enum"])
    if "minimum" in schema:
        said += f", ≥ {schema['minimum']}"
    if "maximum" in schema:
        said += f", ≤ {schema['maximum']}"
    if "maxLength" in schema:
        said += f", at most {schema['maxLength']} characters"
    if schema.get("nullable"):
        said += ", or null"
    return said


def fields_of(spec: dict[str, Any], schema: Any, depth: int = 0,
              seen: tuple[str, ...] = ()) -> list[dict[str, Any]]:  # fmt: skip
    """The fields of an object schema, each with its type, whether it is required, its
    description and the fields of a nested object schema (to ``DEPTH``)."""
    name = _ref_name(schema) if isinstance(schema, dict) else None
    if name in seen or depth >= DEPTH:
        return []
    resolved = _resolve(spec, schema)
    if resolved.get("type") == "array":
        return fields_of(spec, resolved.get("items", {}), depth, seen)
    required = set(resolved.get("required") or ())
    rows = []
    for field, sub in (resolved.get("properties") or {}).items():
        sub_resolved = _resolve(spec, sub)
        rows.append({
            "name": field,
            "type": type_of(spec, sub),
            "required": field in required,
            "read_only": bool(sub_resolved.get("readOnly")),
            "description": inline(sub_resolved.get("description") or sub.get("description", "")),
            "fields": fields_of(spec, sub, depth + 1, (*seen, *([name] if name else []))),
        })  # fmt: skip
    return rows


def _body(spec: dict[str, Any], content: dict[str, Any]) -> list[dict[str, Any]]:
    bodies = []
    for media, said in (content or {}).items():
        schema = said.get("schema", {})
        bodies.append({"media": media, "type": type_of(spec, schema),
                       "fields": fields_of(spec, schema)})  # fmt: skip
    return bodies


def operation(spec: dict[str, Any], path: str, method: str, item: dict[str, Any],
              op: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    parameters = [*item.get("parameters", ()), *op.get("parameters", ())]
    request = op.get("requestBody")
    responses = []
    for status, response in sorted(op.get("responses", {}).items()):
        success = str(status).startswith("2")
        content = response.get("content") or {}
        responses.append({
            "status": status,
            "description": inline(response.get("description", "")),
            "bodies": _body(spec, content) if success else [
                {"media": m, "type": type_of(spec, c.get("schema", {})), "fields": []}
                for m, c in content.items()],
        })  # fmt: skip
    return {
        "id": f"{method}-{re.sub(r'[^a-z0-9]+', '-', path.lower()).strip('-')}",
        "method": method.upper(),
        "path": path,
        "summary": prose(op.get("summary", "")),
        "description": prose(op.get("description", "")),
        "parameters": [
            {
                "name": p.get("name"),
                "in": p.get("in"),
                "required": bool(p.get("required")),
                "type": type_of(spec, p.get("schema", {})),
                "description": inline(p.get("description", "")),
            }
            for p in parameters
        ],
        "request": None
        if not request
        else {
            "required": bool(request.get("required")),
            "description": inline(request.get("description", "")),
            "bodies": _body(spec, request.get("content", {})),
        },
        "responses": responses,
        "tag": (op.get("tags") or ["other"])[0],
    }


def grouped(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The operations by tag, in the document's tag order (untagged ones last)."""
    operations = [operation(spec, path, method, item, item[method])
                  for path, item in sorted(spec.get("paths", {}).items())
                  for method in METHODS if method in item]  # fmt: skip
    tags = [dict(t) for t in spec.get("tags", ())]
    known = {t["name"] for t in tags}
    tags += [{"name": n} for n in dict.fromkeys(o["tag"] for o in operations) if n not in known]
    groups = []
    for tag in tags:
        ops = [o for o in operations if o["tag"] == tag["name"]]
        if ops:
            groups.append({"name": tag["name"], "description": prose(tag.get("description", "")),
                           "operations": ops})  # fmt: skip
    return groups


@bp.route("/api/docs")
def docs():
    spec = current_app.extensions["api"].spec.to_dict()
    groups = grouped(spec)
    operations = [o for g in groups for o in g["operations"]]
    return render_template("api_docs.html", spec=spec, groups=groups, operations=operations)
