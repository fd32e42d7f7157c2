from argus.cli import main

raise SystemExit(main())
