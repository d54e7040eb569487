"""A browsable page of the API, rendered on the server from the OpenAPI document itself
(no script or stylesheet from elsewhere, so it works offline and under our CSP)."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

bp = Blueprint("api_docs", __name__, template_folder="../templates")

METHODS = ("get", "post", "put", "patch", "delete")


@bp.route("/api/docs")
def docs():
    spec = current_app.extensions["api"].spec.to_dict()
    operations = []
    for path, item in sorted(spec.get("paths", {}).items()):
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            operations.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": op.get("summary", ""),
                    "description": op.get("description", ""),
                    "responses": sorted(op.get("responses", {}).items()),
                    "tag": (op.get("tags") or [""])[0],
                }
            )
    return render_template("api_docs.html", spec=spec, operations=operations)
