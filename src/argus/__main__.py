from argus._main import main

raise SystemExit(main())
