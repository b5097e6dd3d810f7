"""Commands of the ``scorer`` CLI, one module per part of the product."""
