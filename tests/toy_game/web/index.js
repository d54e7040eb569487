// Duel's front end: filled in once the platform's page interface is settled.
