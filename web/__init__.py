"""The web app: ``create_app(config)`` with blueprints for pages, API and events."""
